/** Opening the one-click unsubscribe link (GET): only its token is checked, nothing changes. */
import { defineOperation } from "../operation.ts";
import { UNSUBSCRIBE_LINK, UNSUBSCRIBE_MESSAGES, unsubscribeListOf, userOfToken } from "./unsubscribe-link.ts";

/** Opening the link only checks its token: the page shows the button, or why the link is not valid. */
export const openUnsubscribeLink = defineOperation({
  access: UNSUBSCRIBE_LINK,
  async run({ services: { db, config }, url }) {
    const token = url.searchParams.get("token") ?? "";
    const list = unsubscribeListOf(url.searchParams.get("list"));
    const valid = (await userOfToken(db, config.authSecret, token, list)) !== null;
    return { token, list, invalid: valid ? null : UNSUBSCRIBE_MESSAGES.invalid };
  },
});
