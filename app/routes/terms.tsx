import { Link } from "#app/components/link.tsx";
import {
  BusinessAddress,
  LegalDocument,
  LegalList,
  LegalSection,
  MailLink,
} from "#app/features/marketing/legal.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { ISSUE_TYPE_LABELS, ISSUE_TYPES, REFUND_PERCENTAGES } from "#core/lead-issues.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import { GUARANTEE_RULE, GUARANTEE_WAIT_HOURS } from "#core/reply-guarantee.ts";
import { getLegalPageData } from "#server/marketing/legal.ts";
import type { Route } from "./+types/terms";

export function loader({ context }: Route.LoaderArgs) {
  return getLegalPageData(context.services.config);
}

export const meta = () => pageMeta("Terms of Service", "The terms that govern the use of Digs & Gigs.");

/** Refund share by the reason a digger gives when reporting a lead (spec section 9; issue 48's fake request). */
const refundReasons = ISSUE_TYPES.map((type) => ({ reason: ISSUE_TYPE_LABELS[type], refund: `${REFUND_PERCENTAGES[type]}%` }));

export default function Terms({ loaderData }: Route.ComponentProps) {
  const { legalEmail, privacyEmail, supportEmail, businessAddress, lastUpdated } = loaderData;
  return (
    <LegalDocument
      title="Terms of Service"
      summary={`The rules for using ${PRODUCT_NAME}, in plain language.`}
      lastUpdated={lastUpdated}
    >
      <LegalSection id="about" title="1. About these terms">
        <p>
          {PRODUCT_NAME} is a marketplace where clients post requests for services (gigs) and service providers
          (diggers) buy leads to contact those clients. By creating an account or using the site you agree to these
          terms and to our <Link to="/privacy">Privacy Policy</Link>. If you do not agree, please do not use{" "}
          {PRODUCT_NAME}.
        </p>
      </LegalSection>

      <LegalSection id="eligibility" title="2. Who can use Digs & Gigs">
        <LegalList>
          <li>You must be 18 or older to create an account or use {PRODUCT_NAME}.</li>
          <li>
            Accounts are free for both clients and diggers. You are responsible for keeping your password safe and
            for everything done with your account.
          </li>
          <li>The information you give us, and that you show on your gigs and profile, must be true.</li>
        </LegalList>
      </LegalSection>

      <LegalSection id="clients" title="3. For clients">
        <LegalList>
          <li>Posting a gig is free. We charge clients no fees and no commissions.</li>
          <li>
            When a digger buys your lead, your name, e-mail and contact preferences are shown to that digger so they
            can contact you. Several diggers may buy the same lead.
          </li>
          <li>You can close a gig at any time so that no one else can buy it, and reopen it later.</li>
        </LegalList>
      </LegalSection>

      <LegalSection id="diggers" title="4. For diggers">
        <LegalList>
          <li>
            You appear to others by your handle. Your business name, phone, e-mail and references are kept private.
          </li>
          <li>
            Buying a lead is a one-time fee, shown on the gig before you pay: 0.5% of the client&apos;s minimum
            budget, with a $50.00 minimum. There is no subscription or monthly fee.
          </li>
          <li>
            A lead gives you the client&apos;s contact details. It does not guarantee that the client will hire you,
            and other diggers may buy the same lead.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="refunds" title="5. Lead purchases and refunds">
        <p>
          Lead purchases are final, except in cases of fraud or misrepresentation and under the reply guarantee
          below. Refunds are judged case by case:
        </p>
        <LegalList>
          <li>A digger who bought a lead can report an issue with it, once per purchase, giving a reason.</li>
          <li>
            The client who posted the gig reviews the report and approves or rejects the refund. An approved refund is
            full or partial depending on the reason, and goes back to the card used to pay. A report of a fake or spam
            request is decided by {PRODUCT_NAME}; approving it refunds every digger who bought the lead and takes the
            gig down.
          </li>
          <li>
            <strong>Reply guarantee.</strong> {GUARANTEE_RULE} A lead refunded in full cannot be marked as hired or
            reviewed. A report made when the client has not opened the thread {GUARANTEE_WAIT_HOURS} hours after the
            digger&apos;s first message is approved at once, and counts toward the same limit.
          </li>
        </LegalList>
        <div className="overflow-x-auto">
          <table className="w-full max-w-md text-left">
            <caption className="mb-2 text-left font-medium">Refund by reason reported</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-4 font-medium">
                  Reason
                </th>
                <th scope="col" className="py-2 font-medium">
                  Refund if approved
                </th>
              </tr>
            </thead>
            <tbody>
              {refundReasons.map((row) => (
                <tr key={row.reason} className="border-b last:border-0">
                  <td className="py-2 pr-4">{row.reason}</td>
                  <td className="py-2">{row.refund}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          If you believe a lead was fraudulent or misrepresented, write to <MailLink address={supportEmail} /> and we
          will look into it.
        </p>
      </LegalSection>

      <LegalSection id="payments" title="6. Payments">
        <p>
          Card payments are processed by our card payment provider. {PRODUCT_NAME} never sees or stores your full
          card number. Prices are in US dollars.
        </p>
      </LegalSection>

      <LegalSection id="work" title="7. Work between clients and diggers">
        <p>
          {PRODUCT_NAME} introduces clients and diggers; it is not a party to the work they agree. Payment for the
          work is arranged directly between the client and the digger. We do not mediate disputes about the work,
          its quality, its price or its payment. Check references and credentials, and agree the scope and price in
          writing before work starts.
        </p>
      </LegalSection>

      <LegalSection id="conduct" title="8. Acceptable use">
        <LegalList>
          <li>Do not post false, misleading, unlawful or offensive content, or gigs that are not real.</li>
          <li>Do not use contact details from a lead for anything other than the gig it belongs to.</li>
          <li>Do not harass other users, or try to get around the site&apos;s security or payments.</li>
        </LegalList>
        <p>We may remove content, or suspend or close an account, that breaks these terms.</p>
      </LegalSection>

      <LegalSection id="closing" title="9. Closing your account">
        <p>
          You may close your account at any time; see the <Link to="/privacy">Privacy Policy</Link> for how your
          data is deleted. Leads bought before closing are not refunded because of the closing.
        </p>
      </LegalSection>

      <LegalSection id="liability" title="10. Our responsibility">
        <p>
          We work to keep {PRODUCT_NAME} available and accurate, but the site is provided as it is. We do not
          guarantee that a client will hire, that a digger will do good work, or that information posted by users is
          correct. To the extent the law allows, we are not liable for losses arising from work agreed between
          users.
        </p>
      </LegalSection>

      <LegalSection id="changes" title="11. Changes to these terms">
        <p>
          We may update these terms. The date at the top of this page shows when they last changed. If you keep
          using {PRODUCT_NAME} after a change, the new terms apply.
        </p>
      </LegalSection>

      <LegalSection id="contact" title="12. Contact us">
        <p>
          Legal questions and notices: <MailLink address={legalEmail} />. Privacy requests:{" "}
          <MailLink address={privacyEmail} />. Help with your account, a lead or a payment:{" "}
          <MailLink address={supportEmail} />.
        </p>
        <BusinessAddress address={businessAddress} />
      </LegalSection>
    </LegalDocument>
  );
}
