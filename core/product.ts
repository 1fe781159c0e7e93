/** The product's name: page titles, the header and footer, Better Auth's app name and the authenticator app's issuer. */
export const PRODUCT_NAME = "Digs & Gigs";
