import type { CategoryGroup } from "#core/digger-types.ts";

/**
 * Every category as a checkbox named `categoryIds`, top-level ones in bold with their
 * sub-categories indented, in a scrolling box: the digger profile's categories and the
 * Lead alerts card's.
 */
export function CategoryChecklist({ categories, selected, label, className = "max-h-80" }: { categories: CategoryGroup[]; selected: ReadonlySet<string>; label: string; className?: string }) {
  return (
    <div className={`grid gap-4 overflow-y-auto rounded-md border p-4 sm:grid-cols-2 ${className}`} tabIndex={0} aria-label={label}>
      {categories.map((group) => (
        <div key={group.id} className="grid content-start gap-1.5">
          <CategoryOption id={group.id} name={group.name} checked={selected.has(group.id)} strong />
          {group.children.map((child) => (
            <div key={child.id} className="pl-6">
              <CategoryOption id={child.id} name={child.name} checked={selected.has(child.id)} />
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

function CategoryOption({ id, name, checked, strong }: { id: string; name: string; checked: boolean; strong?: boolean }) {
  return (
    <label className={`flex items-center gap-2 text-sm ${strong ? "font-medium" : ""}`}>
      <input type="checkbox" name="categoryIds" value={id} defaultChecked={checked} className="size-4 shrink-0 accent-[var(--primary-strong)]" />
      {name}
    </label>
  );
}
