/** /post-gig, the page: the form's categories and least deadline. Sending it is post-gig.ts. */
import { defineOperation } from "../operation.ts";
import { readerTime } from "../reader-time.ts";
import { listTopLevelCategories } from "../categories.ts";
import { POST_GIG_PAGE } from "./access.ts";

/** /post-gig, the page: the categories to choose from, and the reader's today (the deadline's least, issue 47). */
export const postGigPage = defineOperation({
  access: POST_GIG_PAGE,
  async run({ services, user }) {
    return { categories: await listTopLevelCategories(services.db), today: readerTime(user.timeZone, services.config).today };
  },
});
