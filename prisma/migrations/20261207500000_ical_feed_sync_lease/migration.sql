-- Issue 33: `POST /api/v1/ical-feeds/{id}/sync` fetches a feed inside the request, beside the worker's polls. A
-- feed is still fetched by one sync at a time: each sync first takes the feed's lease (`syncing_until`, set only
-- when free or run out) and gives it back when done. A process that died mid-sync holds it until it runs out.
alter table ical_feeds add column syncing_until timestamptz;
