-- What sign-in needs of an account, in one read: its password hash — none once a one-time password is past its end,
-- so an expired one is refused like a wrong one — whether it must be replaced, its session generation, and whether
-- the account may enter at all (an active membership, an open invitation to accept, or an open sign-up of its email to
-- open an organisation with).
CREATE OR REPLACE FUNCTION public.app_sign_in_account(p_email text)
 RETURNS TABLE(id uuid, email text, name text, password_hash text, password_one_time boolean, session_generation integer, may_enter boolean)
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select u.id, u.email, u.name,
         case when u.password_one_time and u.password_expires_at <= now() then null else u.password_hash end,
         u.password_one_time, u.session_generation,
         exists (select 1 from memberships m where m.user_id = u.id and m.deactivated_at is null)
           or exists (select 1 from staff_invitations i
                       where i.user_id = u.id and i.accepted_at is null and i.ended_at is null and i.expires_at > now())
           or exists (select 1 from sign_ups s
                       where s.email = u.email and s.used_at is null and s.ended_at is null and s.expires_at > now())
    from users u where u.email = lower(btrim(p_email))
$function$;
