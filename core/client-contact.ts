/** The client's contact details, as only a buyer of their lead (and they themselves) may see them. */
export interface ClientContactDetails {
  name: string;
  email: string;
  phone: string | null;
  contactPreferences: string | null;
  /** The client deleted their account: nothing to contact any more. */
  deleted: boolean;
}
