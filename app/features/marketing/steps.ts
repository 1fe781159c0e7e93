/** The steps for clients and for diggers, shown on the landing page and on /how-it-works. */
export interface Step {
  title: string;
  text: string;
}

export const clientSteps: Step[] = [
  {
    title: "Post Your Gig",
    text: "Describe the job, where it is, your timeline and your budget. It takes a few minutes and costs nothing.",
  },
  {
    title: "Get Discovered",
    text: "Diggers who work in your category find your gig. Those who want the job buy your lead to get your contact details.",
  },
  {
    title: "Connect & Hire",
    text: "Interested diggers contact you directly. Compare their profiles, ratings and references, then agree the work and the price between you.",
  },
];

export const diggerSteps: Step[] = [
  {
    title: "Create Your Profile",
    text: "Choose a handle, your categories and rates, and add credentials, work photos and client references. Only your handle is shown publicly.",
  },
  {
    title: "Browse Opportunities",
    text: "Search open gigs by category and keyword. Each gig shows its budget, timeline and the price of its lead before you buy.",
  },
  {
    title: "Purchase & Connect",
    text: "Pay a one-time fee for the leads you want to see the client's name, e-mail and contact preferences, then reach out directly.",
  },
];
