import { describe, expect, it } from 'vitest';
import { canUnlockRemotely } from './remote-unlock-capability';

describe('which locks open remotely', () => {
  it('is every provider with a remote unlock, through a gateway for TTLock, never a released device', () => {
    const lock = (provider: string, offlineReason: string | null = null, deviceId = '7100101') => ({
      provider,
      deviceId,
      offlineReason,
    });
    expect(canUnlockRemotely(lock('seam'))).toBe(true);
    expect(canUnlockRemotely(lock('ttlock'))).toBe(true);
    expect(canUnlockRemotely(lock('simulator', 'gateway_offline'))).toBe(true);
    expect(canUnlockRemotely(lock('ttlock', 'no_gateway'))).toBe(false);
    expect(canUnlockRemotely(lock('simulator', 'no_gateway'))).toBe(false);
    // Seam reaches its locks through its own bridges: "no gateway" is a TTLock notion.
    expect(canUnlockRemotely(lock('seam', 'no_gateway'))).toBe(true);
    expect(canUnlockRemotely(lock('seam', null, 'released:abc'))).toBe(false);
    expect(canUnlockRemotely(lock('other'))).toBe(false);
  });
});
