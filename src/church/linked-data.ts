// schema.org JSON-LD of the church answers (application/ld+json): the profile as a Church, the events as Event items, the live status as a BroadcastEvent; typed with schema-dts.
import type { BroadcastEvent, BroadcastService, Church, Event, Graph, Organization, WithContext } from 'schema-dts';
import type { ChurchRecord } from './records.ts';
import type { ChurchEvent, ChurchProfile, LiveStatus } from './responses.ts';
import { isoOffset, offsetOfLocal } from './zone-offsets.ts';

/** The media type of the JSON-LD answers, as Accept names it. */
export const LINKED_DATA_MEDIA_TYPE = 'application/ld+json';

/**
 * The profile as a schema.org `Church`: name, description (the bio), url (its public page), logo,
 * image (the cover), address (locality and country: the profile has no street), sameAs (its own
 * website). Fields the church left empty are left out, as JSON-LD does.
 */
export function churchLinkedData(profile: ChurchProfile): WithContext<Church> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Church',
    '@id': `${profile.publicPage}#church`,
    name: profile.name,
    ...(profile.bio === '' ? {} : { description: profile.bio }),
    url: profile.publicPage,
    ...(profile.logoUrl === null ? {} : { logo: profile.logoUrl }),
    ...(profile.coverImageUrl === null ? {} : { image: profile.coverImageUrl }),
    address: { '@type': 'PostalAddress', addressLocality: profile.city, addressCountry: profile.country },
    ...(profile.website === null ? {} : { sameAs: profile.website }),
  };
}

/**
 * The events as schema.org `Event` items in one graph, in the shape Google documents for event rich
 * results: name, startDate (required), location with an address (required: the event's place, in
 * the church's locality and country, since an event's location is one text), and the recommended
 * description, endDate, eventStatus, eventAttendanceMode, image, offers (the registration page),
 * organizer. Dates are the JSON's local times with the UTC offset of the church's zone at that date.
 */
export function eventsLinkedData(church: ChurchRecord, profile: ChurchProfile, events: readonly ChurchEvent[]): Graph {
  const organizer: Organization = { '@type': 'Organization', name: church.name, url: profile.publicPage };
  const image = church.coverImageUrl ?? church.logoUrl;
  return {
    '@context': 'https://schema.org',
    '@graph': events.map(
      (event): Event => ({
        '@type': 'Event',
        name: event.name,
        ...(event.description === '' ? {} : { description: event.description }),
        startDate: withOffset(event.startDate, church.timeZone),
        ...(event.endDate === null ? {} : { endDate: withOffset(event.endDate, church.timeZone) }),
        eventStatus: 'https://schema.org/EventScheduled',
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        location: {
          '@type': 'Place',
          name: event.location === '' ? church.name : event.location,
          address: { '@type': 'PostalAddress', addressLocality: church.city, addressCountry: church.country },
        },
        ...(event.coverImageUrl !== null ? { image: event.coverImageUrl } : image !== null ? { image } : {}),
        isAccessibleForFree: event.isFree,
        offers: { '@type': 'Offer', url: event.registrationPage, ...(event.isFree ? { price: 0 } : {}) },
        organizer,
        url: event.registrationPage,
      }),
    ),
  };
}

/**
 * The live status: while live, a `BroadcastEvent` (`isLiveBroadcast`) on
 * the church's station, a `BroadcastService`; not live, the station alone; no station, an empty graph.
 * schema.org has no "not live" broadcast, and the status carries no start time, so none is given.
 */
export function liveLinkedData(church: ChurchRecord, profile: ChurchProfile, live: LiveStatus): Graph {
  if (live.stationName === null || live.listenPage === null) return { '@context': 'https://schema.org', '@graph': [] };
  const station: BroadcastService = {
    '@type': 'BroadcastService',
    name: live.stationName,
    url: live.listenPage,
    broadcaster: { '@type': 'Organization', name: church.name, url: profile.publicPage },
  };
  if (!live.isLive) return { '@context': 'https://schema.org', '@graph': [station] };
  const broadcast: BroadcastEvent = {
    '@type': 'BroadcastEvent',
    name: live.stationName,
    isLiveBroadcast: true,
    url: live.listenPage,
    publishedOn: station,
  };
  return { '@context': 'https://schema.org', '@graph': [broadcast] };
}

/** `YYYY-MM-DDTHH:MM` with the zone's offset at that local time: `2026-03-22T20:00+01:00`. */
function withOffset(local: string, timeZone: string): string {
  return `${local}${isoOffset(offsetOfLocal(local, timeZone))}`;
}
