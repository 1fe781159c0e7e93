import { FilterForm } from "#app/components/filter-form.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeCheckbox } from "#app/components/ui/native-choice.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { BUDGET_BAND_LABELS, BUDGET_BANDS } from "#core/budget-bands.ts";
import { PHONE_TEXTS } from "#core/phone-verification.ts";

interface Category {
  id: string;
  name: string;
}

interface Props {
  /** The top-level categories: one of them is the usual choice. */
  categories: Category[];
  /** The categories the address filters by: one, or a digger's several (sub-categories too). */
  chosenCategories: Category[];
  search: string;
  location: string;
  budget: string | null;
  /** 'Verified phone only' (issue 49): null while phone verification is off (no filter). */
  verifiedPhone: boolean | null;
}

/**
 * Browse Gigs' search and filters (FilterForm: the fields show what the address says). Several
 * chosen categories (a digger's own, after registering) are one option of the select, named by
 * them, whose value carries their ids; choosing another category replaces them.
 */
export function GigFilters({ categories, chosenCategories, search, location, budget, verifiedPhone }: Props) {
  const [single] = chosenCategories;
  const oneOption = chosenCategories.length === 1 && single && categories.some((c) => c.id === single.id);
  const chosenSet =
    chosenCategories.length === 0 || oneOption
      ? null
      : {
          value: chosenCategories.map((c) => c.id).join(","),
          label:
            chosenCategories.length === 1
              ? (single?.name ?? "")
              : `${chosenCategories.length} categories: ${chosenCategories.map((c) => c.name).join(", ")}`,
        };
  const selected = chosenSet ? chosenSet.value : (single?.id ?? "");
  return (
    <FilterForm
      label="Find gigs"
      className={`mb-8 grid gap-3 sm:grid-cols-2 lg:items-end ${verifiedPhone === null ? "lg:grid-cols-[1fr_12rem_auto_auto_auto]" : "lg:grid-cols-[1fr_12rem_auto_auto_auto_auto]"}`}
    >
      <div className="grid gap-2">
        <Label htmlFor="q">Search gigs</Label>
        <Input id="q" name="q" type="search" defaultValue={search} placeholder="Search by title, description or place" maxLength={100} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="location">Location</Label>
        <Input id="location" name="location" defaultValue={location} placeholder="City or ZIP" maxLength={100} autoComplete="address-level2" />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="category">Category</Label>
        <NativeSelect id="category" name="category" defaultValue={selected}>
          <option value="">All Categories</option>
          {chosenSet ? <option value={chosenSet.value}>{chosenSet.label}</option> : null}
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-2">
        <Label htmlFor="budget">Budget</Label>
        <NativeSelect id="budget" name="budget" defaultValue={budget ?? ""}>
          <option value="">All Budgets</option>
          {BUDGET_BANDS.map((band) => (
            <option key={band} value={band}>
              {BUDGET_BAND_LABELS[band]}
            </option>
          ))}
        </NativeSelect>
      </div>
      {verifiedPhone === null ? null : (
        // Like a select, it searches at once (FilterForm); the address says `phone=verified`.
        <Label className="flex min-h-9 items-center gap-2 font-normal">
          <NativeCheckbox name="phone" value="verified" defaultChecked={verifiedPhone} />
          {PHONE_TEXTS.verifiedOnlyFilter}
        </Label>
      )}
      <Button type="submit">Search</Button>
    </FilterForm>
  );
}
