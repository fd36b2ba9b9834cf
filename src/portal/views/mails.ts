// The portal's e-mails, each with a plain-text and an HTML part, the link in both.
import { html } from './html.ts';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export function verificationMail(name: string, link: string): MailContent {
  return mail(
    'Verify your e-mail address',
    name,
    'Please verify your address for the Church Data and Bible API developer portal by opening this link within 24 hours:',
    link,
    'If you did not create an account, ignore this message; nothing happens without the link.',
  );
}

/** Sent when someone signs up with an address that has an account already: its owner learns of it, the form reveals nothing. */
export function existingAccountMail(name: string, signInLink: string, resetLink: string): MailContent {
  const content = mail(
    'You already have an account',
    name,
    'Someone, probably you, tried to create a developer account with this address, which already has one. Sign in here:',
    signInLink,
    `Forgot your password? Choose a new one at ${resetLink}. If it was not you, ignore this message.`,
  );
  return content;
}

export function passwordResetMail(name: string, link: string): MailContent {
  return mail(
    'Reset your password',
    name,
    'Choose a new password for your developer account by opening this link within one hour. It works once:',
    link,
    'If you did not ask for this, ignore this message: your password stays as it is.',
  );
}

function mail(subject: string, name: string, intro: string, link: string, outro: string): MailContent {
  const text = `Hello ${name},\n\n${intro}\n\n${link}\n\n${outro}\n\n-- Church Data and Bible API\n`;
  const body = html`<!doctype html><html lang="en"><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello ${name},</p>
<p>${intro}</p>
<p><a href="${link}">${link}</a></p>
<p>${outro}</p>
<p>— Church Data and Bible API</p>
</body></html>`;
  return { subject, text, html: body.value };
}
