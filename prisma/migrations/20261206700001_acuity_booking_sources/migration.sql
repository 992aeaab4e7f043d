-- An Acuity appointment type (its numeric id) may be mapped to a room or a room type like a Calendly or
-- Cal.com event type.
alter table booking_sources drop constraint booking_sources_provider_check;
alter table booking_sources add constraint booking_sources_provider_check
  check (provider in ('calendly', 'cal', 'acuity'));
