// Test helper: an SMTP "server" that accepts connections and never answers (a tarpit), until told to hand them to a real one.
import fs from 'node:fs';
import net from 'node:net';

export interface SmtpTarpit {
  /** SMTP_URL for the service under test. */
  url: string;
  port: number;
  /** Connections accepted so far, and the most open at once. */
  accepted: number;
  maxOpen: number;
  /** Bytes sent to any client so far: 0 until release(), whatever the clients wrote. */
  bytesAnswered: number;
  /** From now on every held connection, and each new one, is piped to `port` on loopback (a real SMTP server). */
  release(port: number): void;
  stop(): Promise<void>;
}

/**
 * Twenty lines of node:net, as the field notes say: the service's SMTP client connects, waits for a
 * greeting that never comes, and its writes go nowhere, until release().
 */
export async function startSmtpTarpit(): Promise<SmtpTarpit> {
  const held = new Set<net.Socket>();
  let target: number | undefined;
  let open = 0;
  const pipe = (socket: net.Socket, port: number) => {
    const upstream = net.connect(port, '127.0.0.1');
    upstream.on('data', (chunk) => (tarpit.bytesAnswered += chunk.length));
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  };
  const server = net.createServer((socket) => {
    tarpit.accepted += 1;
    open += 1;
    tarpit.maxOpen = Math.max(tarpit.maxOpen, open);
    socket.on('close', () => {
      open -= 1;
      held.delete(socket);
    });
    socket.on('error', () => undefined);
    if (target === undefined) {
      socket.pause();
      held.add(socket);
    } else pipe(socket, target);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const tarpit: SmtpTarpit = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    accepted: 0,
    maxOpen: 0,
    bytesAnswered: 0,
    release(realPort) {
      target = realPort;
      for (const socket of held) {
        socket.resume();
        pipe(socket, realPort);
      }
      held.clear();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of held) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return tarpit;
}

/** How many file descriptors process `pid` has open. */
export function openFileDescriptors(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

/** How many TCP connections process `pid` holds to `port` on loopback (its sockets' inodes matched in /proc/net/tcp and tcp6). */
export function connectionsTo(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // Closed between the listing and the read.
    }
  }
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`]) {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const remotePort = fields[2].split(':')[1];
      if (remotePort === portHex && inodes.has(fields[9])) count += 1;
    }
  }
  return count;
}
