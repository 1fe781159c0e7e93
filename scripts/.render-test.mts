import { renderEmailHtml } from "/work/wt-notify/server/mail/render.tsx";
const html = await renderEmailHtml({ subject: 'bob_digs bought your lead for "Fix my roof"', text: 'Hello Ann,\n\nbob_digs bought your lead for "Fix my roof" ($12.00), so they can now see your contact details and may get in touch.\n\nTheir profile: http://localhost:3000/digger/abc\n\nYou can see and manage your gigs on My Gigs: http://localhost:3000/my-gigs\n\nSee https://example.com/x. inline' }, { publicUrl: "http://localhost:3000", unsubscribeUrl: "http://localhost:3000/unsubscribe?token=a&b" });
console.log(html);
