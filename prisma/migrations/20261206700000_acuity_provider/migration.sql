-- Acuity Scheduling, the third booking provider (issue 32): its webhooks in the inbox, its credentials among
-- the provider secrets, its bookings as a reservation source. A new enum value cannot be used in the
-- transaction that adds it, so the booking sources' check follows in the next migration.
alter type webhook_provider add value if not exists 'acuity';
alter type secret_provider add value if not exists 'acuity';
alter type reservation_source add value if not exists 'acuity';
