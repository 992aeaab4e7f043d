import { describe, expect, it } from 'vitest';
import { providerProblem } from './provider-problem';

describe('providerProblem', () => {
  it('reads the adapters’ failure codes as what a manager can do about them', () => {
    expect(providerProblem('seam_not_configured')).toBe('notConfigured');
    expect(providerProblem('ttlock_not_configured')).toBe('notConfigured');
    expect(providerProblem('unauthorized')).toBe('credentials');
    expect(providerProblem('vendor_10003')).toBe('credentials');
    expect(providerProblem('device_offline')).toBe('device');
    expect(providerProblem('timeout')).toBe('unreachable');
    expect(providerProblem('http_503')).toBe('unreachable');
    expect(providerProblem('seam_something_new')).toBe('other');
  });
});
