-- Issue 28, item 11 (e): codes on a lock that UnlockOS did not make (a master code, someone else's) are
-- drift to report, never to touch. A manager can acknowledge the ones a drift incident named: then they
-- are no drift any more, so the incident neither reopens nor mails again until the unknown codes change
-- (a code not in this set appears). The provider's code ids, never a PIN.
alter table locks add column acknowledged_foreign_codes text[] not null default '{}';
alter table locks add column foreign_codes_acknowledged_at timestamptz;
