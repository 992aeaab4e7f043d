-- A cryptographically random PIN of n digits (pgcrypto), without modulo bias.
CREATE OR REPLACE FUNCTION public.app_random_pin(n integer)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
declare
  digits text := '';
  b integer;
begin
  while length(digits) < n loop
    b := get_byte(gen_random_bytes(1), 0);
    if b < 250 then digits := digits || (b % 10)::text; end if;
  end loop;
  return digits;
end $function$;
