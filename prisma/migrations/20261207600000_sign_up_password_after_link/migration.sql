-- Issue 43.1: a sign-up no longer carries a password. Whoever fills in the sign-up form is not known to own the mailbox
-- until its link is followed; a password typed before that could become the password of an account the mailbox's owner
-- then opens (or of an account made for an invitation) — an account pre-hijack. The password is now typed on the
-- link's page and passed to app_complete_sign_up (prisma/sql/staff/), so a sign-up row has nowhere to keep one.
drop function if exists app_request_sign_up(uuid, bytea, text, text, text, text, text, text, text);
drop function if exists app_complete_sign_up(bytea, uuid);
alter table sign_ups drop column password_hash;
