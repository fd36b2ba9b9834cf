// Debian's Chromium for browser tests: the flags this machine needs and a playwright-core launch over them.
import { type Browser, chromium } from 'playwright-core';
import { requirement } from './requirements.ts';

/** No sandbox (tests run as root), and no connection to anything but the test servers on loopback. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches the installed Chromium (never a downloaded one); call inside describeWith(['chromium'], …). */
export function launchChromium(): Promise<Browser> {
  const executablePath = requirement('chromium').path;
  if (executablePath === undefined) throw new Error('chromium is not installed (apt-get install chromium)');
  return chromium.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true });
}
