-- The open invitation a token names, locked; none (UU002) when it is unknown, used, ended or past its end — one
-- refusal for all of them.
CREATE OR REPLACE FUNCTION public.app_open_invitation(p_token_hash bytea)
 RETURNS staff_invitations
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  v_row staff_invitations;
begin
  select * into v_row from staff_invitations i where i.token_hash = p_token_hash for update;
  if v_row.id is null or v_row.accepted_at is not null or v_row.ended_at is not null or v_row.expires_at <= now() then
    raise exception 'no open invitation' using errcode = 'UU002';
  end if;
  return v_row;
end $function$;
