import { FilterForm } from "#app/components/filter-form.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { NativeSelect } from "#app/components/ui/native-select.tsx";
import { BUDGET_BAND_LABELS, BUDGET_BANDS } from "#core/budget-bands.ts";

interface Props {
  categories: Array<{ id: string; name: string }>;
  search: string;
  location: string;
  categoryId: string | null;
  budget: string | null;
}

/** Browse Gigs' search and filters (FilterForm: the fields show what the address says). */
export function GigFilters({ categories, search, location, categoryId, budget }: Props) {
  return (
    <FilterForm label="Find gigs" className="mb-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_12rem_auto_auto_auto] lg:items-end">
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
        <NativeSelect id="category" name="category" defaultValue={categoryId ?? ""}>
          <option value="">All Categories</option>
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
      <Button type="submit">Search</Button>
    </FilterForm>
  );
}
