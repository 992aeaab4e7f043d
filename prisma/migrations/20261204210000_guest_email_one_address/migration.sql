-- Issue 28, item 10(b): a guest's email is one plain address. A Calendly or Cal.com invitee whose
-- email carried a comma or a line break was stored as given, and the guest's mail then went to
-- other people too (a list) or carried headers of the sender's choosing (CR/LF). Every path checks
-- the address as the API does (lib/guests/guest-email.ts; a provider's bad one is stored as none);
-- this is the last line: no white space or control character, no list separator, no display name,
-- one @. NOT VALID: rows stored before stay as they are (a mail to them is composed by nodemailer,
-- which takes the address as one recipient), every new or changed row is checked.
alter table guests add constraint guests_email_one_address
  check (email is null or email ~ '^[^[:space:][:cntrl:],;<>"()@\\]+@[^[:space:][:cntrl:],;<>"()@\\]+$') not valid;
