-- Push endpoints only at the browser vendors' push services, on port 443 (issue 45, finding 1;
-- core/push-schemas.ts PUSH_SERVICES): a device kept with any other host (this machine, the
-- private network, a cloud's metadata address, another port) goes, with its waiting pushes
-- (their foreign key cascades). The pattern is the allow-list's: these hosts exactly, or any
-- host under push.apple.com and notify.windows.com, matched on whole labels.
DELETE FROM "push_subscriptions"
WHERE "endpoint" !~* '^https://(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com|([a-z0-9-]+\.)+push\.apple\.com|([a-z0-9-]+\.)+notify\.windows\.com)(:443)?([/?#]|$)';
