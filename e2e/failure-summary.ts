import type { FullConfig, FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

// CI keeps only the last lines of a run's output, and a run where every spec fails ends in a list of their titles:
// the reason scrolled away. This reporter, after the list reporter, repeats the distinct reasons (the first line of
// each error, with how many tests it failed) and what the app answered at the first failure, so the tail says why.

const ANSI = /\u001b\[[0-9;]*m/g;
const SHOWN_REASONS = 5;
const LINES_PER_REASON = 8;

type Reason = { lines: string[]; tests: string[] };

export default class FailureSummary implements Reporter {
  private readonly reasons = new Map<string, Reason>();
  private health: Promise<string> | undefined;
  /** The address Playwright waited on before the run: the app's health. */
  private healthUrl: string | undefined;

  onBegin(config: FullConfig): void {
    this.healthUrl = config.webServer?.url;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'failed' && result.status !== 'timedOut') return;
    this.health ??= probeHealth(this.healthUrl);
    const message = (result.error?.message ?? `${result.status} without an error`).replace(ANSI, '');
    const lines = message.split('\n').filter((line) => line.trim() !== '');
    const key = lines[0] ?? result.status;
    const reason = this.reasons.get(key) ?? { lines: lines.slice(0, LINES_PER_REASON), tests: [] };
    reason.tests.push(`${test.titlePath().slice(1).join(' › ')}${result.retry ? ` (retry ${result.retry})` : ''}`);
    this.reasons.set(key, reason);
  }

  async onEnd(result: FullResult): Promise<void> {
    if (this.reasons.size === 0) return;
    const heading =
      result.status === 'passed'
        ? 'The e2e run passed, but these failed before a retry passed (flaky)'
        : `Why the e2e run ${result.status === 'failed' ? 'failed' : `ended ${result.status}`}`;
    const out = [`\n${heading}:`];
    const reasons = [...this.reasons.values()].sort((a, b) => b.tests.length - a.tests.length);
    for (const reason of reasons.slice(0, SHOWN_REASONS)) {
      out.push(`- ${reason.tests.length} failure(s), first: ${reason.tests[0]}`);
      out.push(...reason.lines.map((line) => `    ${line.slice(0, 200)}`));
    }
    if (reasons.length > SHOWN_REASONS) out.push(`- and ${reasons.length - SHOWN_REASONS} other reason(s) above`);
    out.push(`At the first failure, GET ${this.healthUrl ?? '/api/health'}: ${await this.health}`);
    process.stdout.write(`${out.join('\n')}\n`);
  }
}

/** What the app under test answers on its health address now: a status and the start of the body, or the error. */
async function probeHealth(url: string | undefined): Promise<string> {
  if (!url) return 'not asked (no webServer in the configuration)';
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return `${response.status} ${(await response.text()).slice(0, 300)}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
    return `no answer (${cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message})`;
  }
}
