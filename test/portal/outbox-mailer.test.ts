// Without SMTP: each message is an .eml file in the outbox folder with both parts, and its link is logged (laptop only).
import fs from 'node:fs';
import fsPromises from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/http/logger.ts';
import { createOutboxMailer } from '../../src/portal/mailer/outbox-mailer.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { PortalClient } from './portal-client.ts';
import { GOOD_PASSWORD, TEST_SCRYPT_N } from './portal-server.ts';

let server: TestServer;
let outbox: string;

beforeAll(async () => {
  outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-outbox-'));
  server = await startTestServer({ MAIL_OUTBOX_DIR: outbox, PASSWORD_SCRYPT_N: TEST_SCRYPT_N });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

describe('the outbox mailer', () => {
  it('writes the verification message as an .eml file and logs its link, so sign-up works without a mail server', async () => {
    const client = new PortalClient(server.url);
    await client.get('/portal/sign-up');
    await client.post('/portal/sign-up', { name: 'Laptop Dev', email: 'laptop@example.org', password: GOOD_PASSWORD });
    let files: string[] = [];
    // Written after the answer (mail is never awaited by a request): wait for it, up to 30 s.
    for (let wait = 0; wait < 300 && files.length === 0; wait += 1) {
      files = fs.readdirSync(outbox).filter((file) => file.endsWith('.eml'));
      if (files.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(files).toHaveLength(1);
    const mail = await simpleParser(fs.readFileSync(path.join(outbox, files[0])));
    expect(mail.subject).toBe('Verify your e-mail address');
    expect(mail.text).toMatch(/\/portal\/verify-email\?token=/);
    expect(mail.html).toContain('/portal/verify-email?token=');
    const link = /https?:\/\/\S+verify-email\?token=\S+/.exec(mail.text ?? '')![0];
    const logged = server.logs.map((line) => JSON.parse(line)).find((entry) => entry.link !== undefined);
    expect(logged).toMatchObject({ link, subject: 'Verify your e-mail address' });
  });

  it('shows a message under its .eml name only once it is whole, and leaves nothing behind a failed write', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-whole-'));
    const mailer = createOutboxMailer(folder, 'portal@example.org', createLogger('silent'));
    const emlFiles = () => fs.readdirSync(folder).filter((file) => file.endsWith('.eml'));
    const realWrite = fsPromises.writeFile;
    // A write that stops halfway until the test lets it go on, as a slow disk or a busy machine would.
    let goOn!: () => void;
    const halfway = new Promise<void>((resolve) => {
      goOn = resolve;
    });
    let started!: () => void;
    const writing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const write = vi.spyOn(fsPromises, 'writeFile').mockImplementation(async (file, data, options) => {
      const bytes = data as Buffer;
      await realWrite(file, bytes.subarray(0, bytes.length >> 1), options as never);
      started();
      await halfway;
      await fsPromises.appendFile(file, bytes.subarray(bytes.length >> 1));
    });
    try {
      const sent = mailer.send({
        to: 'dev@example.org',
        subject: 'Whole',
        text: 'A body long enough to cut in two.',
        html: '<p>A body</p>',
      });
      await writing;
      expect(emlFiles()).toEqual([]);
      goOn();
      await sent;
      expect(fs.readdirSync(folder)).toEqual(emlFiles());
      expect(emlFiles()).toHaveLength(1);
      expect((await simpleParser(fs.readFileSync(path.join(folder, emlFiles()[0] as string)))).subject).toBe('Whole');

      // A disk that fills up halfway through the next message: its partial file must not stay behind.
      write.mockImplementationOnce(async (file, data, options) => {
        const bytes = data as Buffer;
        await realWrite(file, bytes.subarray(0, bytes.length >> 1), options as never);
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      });
      await expect(mailer.send({ to: 'dev@example.org', subject: 'Lost', text: 'x', html: '<p>x</p>' })).rejects.toThrow('no space');
      expect(fs.readdirSync(folder)).toEqual(emlFiles());
      expect(emlFiles()).toHaveLength(1);
    } finally {
      write.mockRestore();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
