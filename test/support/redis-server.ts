// A private redis-server for tests that must crash and restart Redis (the shared one on 6379
// is never touched): append-only persistence, fsync on every write, its own directory.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PrivateRedis {
  url: string;
  port: number;
  dir: string;
  /** SIGKILL, as in a crash: only what the append-only file holds survives. */
  crash: () => Promise<void>;
  /** Starts again on the same port and directory. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function launch(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn('redis-server', [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '',
    '--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return child;
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve();
  else child.once('exit', () => resolve());
});

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kerf-redis-'));
  let child = await launch(port, dir);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    crash: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    restart: async () => {
      child = await launch(port, dir);
    },
    stop: async () => {
      child.kill('SIGKILL');
      await exited(child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
