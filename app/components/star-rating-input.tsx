import { Star } from "#app/components/icons.tsx";
import { FieldMessage } from "#app/components/form-field.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { RadioGroup, RadioGroupItem } from "#app/components/ui/radio-group.tsx";
import { STAR_VALUES, starLabel } from "#core/review-texts.ts";

/**
 * The review forms' 'Rating' (both sides' reviews, issue 51): a radio group of '1 star' to
 * '5 stars', its value in a hidden field `rating` ('' while none is chosen), and its message
 * beside it. `id` is the form's own prefix.
 */
export function StarRatingInput({ id, value, onChange, error }: { id: string; value: string; onChange: (value: string) => void; error?: string }) {
  return (
    <div className="grid gap-2">
      <input type="hidden" name="rating" value={value} />
      <span id={`${id}-rating`} className="text-sm font-medium">
        Rating
      </span>
      <RadioGroup
        aria-labelledby={`${id}-rating`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-rating-error` : undefined}
        value={value}
        onValueChange={onChange}
        className="flex flex-wrap gap-2"
      >
        {STAR_VALUES.map((stars) => (
          <Label
            key={stars}
            htmlFor={`${id}-star-${stars}`}
            className="flex cursor-pointer items-center gap-1.5 rounded-md border px-3 py-2 has-[[data-state=checked]]:border-primary-strong has-[[data-state=checked]]:bg-primary/10"
          >
            <RadioGroupItem id={`${id}-star-${stars}`} value={String(stars)} aria-label={starLabel(stars)} />
            <span aria-hidden="true" className="flex items-center gap-0.5">
              {stars}
              <Star className="size-4 fill-primary text-primary-strong" />
            </span>
          </Label>
        ))}
      </RadioGroup>
      <FieldMessage id={`${id}-rating`} error={error} />
    </div>
  );
}
