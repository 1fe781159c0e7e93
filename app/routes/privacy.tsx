import { Link } from "#app/components/link.tsx";
import {
  BusinessAddress,
  LegalDocument,
  LegalList,
  LegalSection,
  MailLink,
} from "#app/features/marketing/legal.tsx";
import { pageMeta } from "#app/lib/meta.ts";
import { PRODUCT_NAME } from "#core/product.ts";
import { getLegalPageData } from "#server/marketing/legal.ts";
import type { Route } from "./+types/privacy";

export function loader({ context }: Route.LoaderArgs) {
  return getLegalPageData(context.services.config);
}

export const meta = () => pageMeta("Privacy Policy", "How Digs & Gigs collects, uses and protects your data.");

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { legalEmail, privacyEmail, supportEmail, businessAddress, lastUpdated } = loaderData;
  return (
    <LegalDocument
      title="Privacy Policy"
      summary={`What ${PRODUCT_NAME} knows about you, who can see it, and how to get it or have it deleted.`}
      lastUpdated={lastUpdated}
    >
      <LegalSection id="collect" title="1. What we hold">
        <LegalList>
          <li>
            <strong>Your account:</strong> your full name, e-mail address, whether you are a client or a digger, your
            password (stored only as a secure hash) and, if you turn it on, your two-factor settings.
          </li>
          <li>
            <strong>Digger profiles:</strong> your handle, business name, phone, location, profession, bio, rates,
            experience, availability, categories, credentials (insured, bonded, licensed), work photos, portfolio
            link and client references.
          </li>
          <li>
            <strong>Gigs:</strong> what clients post: title, description, location, timeline, budget, category,
            deadline, contact preferences and, if you give one, your phone number.
          </li>
          <li>
            <strong>Purchases and refunds:</strong> which leads a digger bought, the amount paid, reported issues and
            their outcome. Card details are handled by our card payment provider; we never see or store your full
            card number.
          </li>
          <li>
            <strong>Messages:</strong> what you send us through the contact form or by e-mail.
          </li>
          <li>
            <strong>Sign-in and security:</strong> a session cookie that keeps you signed in, and for each session the
            IP address and browser it was started from. We use no advertising or tracking cookies.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="visible" title="2. Who can see what">
        <LegalList>
          <li>
            <strong>Diggers:</strong> only your handle is public, with your profile&apos;s professional details
            (profession, location, bio, rates, categories, credentials, ratings and work photos). Your full name,
            business name, phone, e-mail and references are private. A reference&apos;s contact details are shared
            with a client only if you approve their request.
          </li>
          <li>
            <strong>Clients:</strong> your gigs can be seen by anyone browsing, but without your name or contact
            details. Your name, e-mail, phone (if given) and contact preferences are revealed only to the diggers who buy the lead for
            that gig.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="use" title="3. How we use it">
        <LegalList>
          <li>To run the marketplace: show gigs and profiles, sell leads, and handle reported issues and refunds.</li>
          <li>To send you e-mail about your account and activity, and to answer your messages.</li>
          <li>To keep the site secure and to prevent fraud and abuse.</li>
        </LegalList>
        <p>We do not sell your personal data.</p>
      </LegalSection>

      <LegalSection id="sharing" title="4. Who we share it with">
        <LegalList>
          <li>Our card payment provider, to take payments and make refunds.</li>
          <li>The providers that host the site and deliver our e-mail, only to do that work for us.</li>
          <li>Authorities, when the law requires it.</li>
        </LegalList>
      </LegalSection>

      <LegalSection id="email" title="5. E-mail from us">
        <p>
          You can opt out of promotional e-mail at any time, using the link in those messages or by writing to us.
          Transactional e-mail, such as receipts, password resets, and messages about your leads, refunds and
          requests, is part of the service and cannot be turned off while you have an account.
        </p>
      </LegalSection>

      <LegalSection id="rights" title="6. Your data, your choices">
        <LegalList>
          <li>
            <strong>Deletion:</strong> you can ask us to delete your account at any time by writing to{" "}
            <MailLink address={privacyEmail} /> from the e-mail address of your account. We delete your data within 30
            days of your request.
          </li>
          <li>
            <strong>Data portability:</strong> you can get a copy of your data on request, or download it yourself
            from your <Link to="/account">account page</Link>.
          </li>
          <li>
            <strong>Corrections:</strong> you can change your profile and gigs yourself, or ask us to correct
            anything else.
          </li>
        </LegalList>
      </LegalSection>

      <LegalSection id="security" title="7. Keeping it safe">
        <p>
          Passwords are stored only as secure hashes, connections are encrypted, and sessions use cookies that page
          scripts cannot read. You can add two-factor authentication to your account for extra protection.
        </p>
      </LegalSection>

      <LegalSection id="age" title="8. Age">
        <p>
          {PRODUCT_NAME} is for people 18 or older. We do not knowingly hold data about anyone younger; if you
          believe we do, write to us and we will delete it.
        </p>
      </LegalSection>

      <LegalSection id="changes" title="9. Changes to this policy">
        <p>
          We may update this policy. The date at the top of this page shows when it last changed. See also our{" "}
          <Link to="/terms">Terms of Service</Link>.
        </p>
      </LegalSection>

      <LegalSection id="contact" title="10. Contact us">
        <p>
          Privacy requests and questions: <MailLink address={privacyEmail} />. Legal notices:{" "}
          <MailLink address={legalEmail} />. Anything else: <MailLink address={supportEmail} />.
        </p>
        <BusinessAddress address={businessAddress} />
      </LegalSection>
    </LegalDocument>
  );
}
