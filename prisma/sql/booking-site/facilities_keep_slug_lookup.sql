-- Trigger: keeps facility_slugs (the install-wide slug → facility lookup) in step with facilities.
CREATE OR REPLACE FUNCTION public.facilities_keep_slug_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.slug is not null then
    delete from facility_slugs where slug = old.slug and tenant_id = old.tenant_id and facility_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.slug is not null then
    insert into facility_slugs (slug, tenant_id, facility_id) values (new.slug, new.tenant_id, new.id);
  end if;
  return null;
end $function$;
