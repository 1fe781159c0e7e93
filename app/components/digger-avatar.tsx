import { Avatar, AvatarFallback, AvatarImage } from "#app/components/ui/avatar.tsx";
import { avatarInitials, displayHandle } from "#core/digger-display.ts";

/** The digger's photo, or the first two letters of the handle (DG without one); `className` sizes it (size-14 without one). */
export function DiggerAvatar({ handle, imageUrl, className }: { handle: string; imageUrl: string | null; className?: string }) {
  return (
    <Avatar className={className ?? "size-14"}>
      {imageUrl ? <AvatarImage src={imageUrl} alt={`Profile photo of ${displayHandle(handle)}`} /> : null}
      <AvatarFallback aria-hidden="true" className="bg-primary/15 text-base font-semibold text-foreground">
        {avatarInitials(handle)}
      </AvatarFallback>
    </Avatar>
  );
}
