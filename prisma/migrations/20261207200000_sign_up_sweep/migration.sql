-- Issue 32 (item 1): a sign-up nobody completed is not kept. The worker's sweep clears the chosen password's hash
-- as soon as the link can no longer be used (expired or replaced) and removes the row (what was typed, its mail)
-- a week after it expired.
grant delete on sign_ups to app_service;
