-- Which job-queue workers each worker process runs, so a live process can release the jobs of a
-- process that died mid-job (graphile-worker would otherwise hold them locked for hours).
alter table worker_heartbeats add column queue_worker_ids text[] not null default '{}';
