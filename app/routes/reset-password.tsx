import { PageHeader } from "#app/components/page-header.tsx";
import { pageMeta } from "#app/lib/meta.ts";

export const meta = () => pageMeta("Set a New Password", "Choose a new password for your account.");

export default function ResetPassword() {
  return <PageHeader title="Set a New Password" />;
}
