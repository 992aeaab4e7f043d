import { z } from 'zod';

// The guest messages' request and response shapes (API.md: GET/POST /reservations/{id}/messages).

/** POST /reservations/{id}/messages: only the guest link can be sent again. */
export const ZSendMessageBodySchema = z.object({ kind: z.literal('key_link') }).strict();

export const ZMessageSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(['key_link', 'stay_changed']),
    channel: z.literal('email'),
    to: z.string().nullable().describe('The guest’s address; null once the guest is deleted'),
    status: z
      .enum(['queued', 'sent', 'failed'])
      .describe('failed: every attempt failed, or the stay was cancelled or ended before it could be sent'),
    attempts: z.number().int().min(0),
    sentAt: z.string().describe('RFC 3339 time in UTC').nullable(),
  })
  .meta({ id: 'Message' });
