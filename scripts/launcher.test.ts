import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { supervise, type Services } from './launcher';

const scratch: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A child that marks `file` when it runs, then idles for a few seconds (never longer, whatever the test does). */
const marker = (file: string) => [
  '-e',
  "require('fs').writeFileSync(process.argv[1], ''); setTimeout(() => {}, 3000)",
  file,
];

describe("the launcher's supervisor", () => {
  it('starts no child once a stop has begun, and stops the ones it started', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const dir = mkdtempSync(path.join(tmpdir(), 'launcher-'));
    scratch.push(dir);
    const services = { envOf: () => ({ ...process.env }), database: { close: async () => {} } } as unknown as Services;
    const { spawnChild, shutdown } = supervise(services);
    const [early, late] = [path.join(dir, 'early'), path.join(dir, 'late')];

    spawnChild('early', 'web', marker(early));
    await vi.waitFor(() => expect(existsSync(early)).toBe(true), { timeout: 5000 });
    const stopped = shutdown(0);
    spawnChild('late', 'web', marker(late));
    await stopped;

    expect(exit).toHaveBeenCalledWith(0);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(existsSync(late)).toBe(false);
  });
});
