/** A vendor call's outcome: data, or a classified failure that says whether retrying can help. */
export type VendorResult<T> = { ok: true; data: T } | { ok: false; code: string; retryable: boolean };

export type ProgramCodeInput = {
  deviceRef: string;
  pin: string;
  validFrom: Date;
  expiresAt: Date;
  /** Our access key id: lets a retry find a code that an earlier, lost call already set. */
  clientRef: string;
  correlationId: string;
};

/** The lock-vendor port: what UnlockOS needs from any lock platform. */
export interface LockVendor {
  programCode(input: ProgramCodeInput): Promise<VendorResult<{ vendorKeyId: string }>>;
  removeCode(input: { deviceRef: string; vendorKeyId: string; correlationId: string }): Promise<VendorResult<null>>;
  findCode(input: {
    deviceRef: string;
    clientRef: string;
    correlationId: string;
  }): Promise<VendorResult<{ vendorKeyId: string } | null>>;
  codeStatus(input: {
    deviceRef: string;
    vendorKeyId: string;
    correlationId: string;
  }): Promise<VendorResult<{ state: 'set' | 'absent' }>>;
  /** Whether the provider answers and accepts our credentials (a fresh sign-in, never a cached token). */
  checkHealth(input: { correlationId: string }): Promise<VendorResult<null>>;
}
