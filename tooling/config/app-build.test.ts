import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIsStale, CACHE_SAVING_NICE, startBuild } from './app-build';

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'app-build-'));
  scratch.push(dir);
  return dir;
}

/** A stand-in for `next build`: prints what it is given, line by line, then waits or exits. */
function fakeBuild(dir: string, script: string): string {
  const file = path.join(dir, 'fake-build.mjs');
  writeFileSync(file, script);
  return file;
}

const sink = () => ({ stdout: new PassThrough(), stderr: new PassThrough() });

/** The nice value of a process (field 19 of /proc/<pid>/stat, after the command's closing parenthesis). */
function niceOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

describe('the build npm start runs', () => {
  it('is needed without a build, and again when a source (messages and i18n included) is newer than it', () => {
    const root = folder();
    const dist = path.join(root, '.next');
    for (const dir of ['app', 'messages', 'i18n']) mkdirSync(path.join(root, dir));
    writeFileSync(path.join(root, 'app', 'page.tsx'), '');
    writeFileSync(path.join(root, 'messages', 'en.json'), '{}');
    expect(buildIsStale(root, dist)).toBe(true);
    mkdirSync(dist);
    const past = new Date(Date.now() - 60_000);
    for (const entry of ['app/page.tsx', 'app', 'messages/en.json', 'messages', 'i18n'])
      utimesSync(path.join(root, entry), past, past);
    writeFileSync(path.join(dist, 'BUILD_ID'), 'x');
    expect(buildIsStale(root, dist)).toBe(false);
    writeFileSync(path.join(root, 'messages', 'en.json'), '{"a":"b"}');
    expect(buildIsStale(root, dist)).toBe(true);
  });

  it('is compiled, then usable once its route table is printed, and then saves its cache at the lowest priority; its output passes through', async () => {
    const dir = folder();
    const script = fakeBuild(
      dir,
      `console.log('✓ Compiled successfully in 1s');
       setTimeout(() => console.log('  Build ran with "compile" mode, to finalize the build run "generate"\\n\\nRoute (app)'), 900);
       setTimeout(() => console.log('ƒ  (Dynamic)  server-rendered on demand'), 1000);
       setTimeout(() => process.exit(0), 30_000);`,
    );
    const out = sink();
    let printed = '';
    out.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const build = startBuild({ args: [script], env: process.env, out });
    let usable = false;
    void build.usable.then(() => (usable = true));
    try {
      await build.compiled;
      expect(usable).toBe(false);
      await build.usable;
      expect(build.child.exitCode).toBeNull();
      expect(niceOf(build.child.pid!)).toBe(CACHE_SAVING_NICE);
      // Passed through, but for the compile mode's note about a generate step.
      expect(printed).toContain('✓ Compiled successfully');
      expect(printed).toContain('Route (app)');
      expect(printed).not.toContain('compile" mode');
    } finally {
      build.child.kill('SIGKILL');
    }
  });

  it('fails when it exits with an error before its output is complete, and is only reported after', async () => {
    const dir = folder();
    const failing = startBuild({
      args: [fakeBuild(dir, `console.log('Failed to compile.'); process.exit(1);`)],
      env: process.env,
      out: sink(),
    });
    await expect(failing.usable).rejects.toThrow('the build exited with 1');

    const said: string[] = [];
    const late = startBuild({
      args: [
        fakeBuild(
          dir,
          `console.log('ƒ  (Dynamic)  server-rendered on demand'); setTimeout(() => process.exit(3), 500);`,
        ),
      ],
      env: process.env,
      out: sink(),
      say: (line) => said.push(line),
    });
    await late.usable;
    await new Promise((resolve) => late.child.once('exit', resolve));
    expect(said).toEqual([expect.stringContaining('stopped while saving its cache (3)')]);
  });
});
