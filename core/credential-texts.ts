/**
 * The credentials' names and the profile's badge text (core/credentials.ts has the forms' zod
 * schemas): apart, so that the profile page does not download zod (docs/decisions/0050).
 */
export const CREDENTIALS = { insured: "Insured", bonded: "Bonded", licensed: "Licensed" } as const;
export type CredentialKind = keyof typeof CREDENTIALS;
export const CREDENTIAL_KINDS = Object.keys(CREDENTIALS) as CredentialKind[];

/**
 * The profile's badge of a checked credential: 'Insured — verified Nov 24, 2026', its day as the
 * server wrote it in the reader's zone (issue 47).
 */
export const verifiedCredentialText = (credential: CredentialKind, verifiedOnText: string) => `${CREDENTIALS[credential]} — verified ${verifiedOnText}`;

