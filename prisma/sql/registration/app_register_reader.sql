-- Who reads the guest register in this transaction, as its audit actor: an active manager of the tenant (app.user_id), or a live API key of the tenant (app.api_key_id: a tenant's API key acts for its management, decision 034); anyone else 42501.
CREATE OR REPLACE FUNCTION public.app_register_reader(p_tenant_id uuid)
 RETURNS TABLE(reader_type actor_type, reader_id text, reader_label text)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if app_current_user() is not null then
    perform app_register_assert_manager(p_tenant_id);
    return query select 'user'::actor_type, app_current_user()::text,
                        (select coalesce(nullif(u.name, ''), u.email) from users u where u.id = app_current_user());
    return;
  end if;
  perform app_register_assert_scope(p_tenant_id, null);
  if app_current_tenant() is not null and app_current_api_key() is not null then
    return query select 'api_key'::actor_type, k.id::text, 'API key “' || k.name || '”'
                   from api_keys k
                  where k.tenant_id = p_tenant_id and k.id = app_current_api_key() and k.revoked_at is null;
    if found then
      return;
    end if;
  end if;
  raise exception 'only a manager of this tenant, or its API key, reads the guest register' using errcode = '42501';
end $function$;
revoke all on function public.app_register_reader(uuid) from public;
grant execute on function public.app_register_reader(uuid) to app_authenticated;
