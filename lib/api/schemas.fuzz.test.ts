import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from './routes';

describe('request schemas under fuzzing', () => {
  it('answer arbitrary JSON with success or issues, never a throw', () => {
    const schemas = API_ROUTES.flatMap((r) => [r.body, r.query]).filter((s) => s !== undefined);
    expect(schemas.length).toBeGreaterThan(3);
    const nasty = fc.oneof(
      fc.jsonValue({ maxDepth: 6 }),
      fc.record(
        {
          guest: fc.oneof(fc.jsonValue(), fc.record({ name: fc.string() })),
          reservations: fc.array(
            fc.record({
              roomId: fc.oneof(fc.uuid(), fc.string()),
              startsAt: fc.oneof(fc.string(), fc.date().map(String), fc.constant('2027-02-30T00:00:00Z')),
              endsAt: fc.jsonValue(),
            }),
            { maxLength: 60 },
          ),
          reason: fc.oneof(fc.string(), fc.jsonValue()),
          from: fc.string(),
          to: fc.string(),
          limit: fc.oneof(fc.integer(), fc.string()),
          cursor: fc.string(),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(nasty, (value) => {
        for (const schema of schemas) {
          const result = schema!.safeParse(value);
          expect(typeof result.success).toBe('boolean');
        }
      }),
      { numRuns: 400 },
    );
  });
});
