import { z } from 'zod';

/** A reason a person gives for revoking or cancelling: required, short, printable. */
export const ZReasonSchema = z.string().trim().min(1, 'a reason is required').max(200);

export const ZRevokeKeyBodySchema = z.object({ reason: ZReasonSchema }).strict();
export type TRevokeKeyBody = z.infer<typeof ZRevokeKeyBodySchema>;
