import { X } from "#app/components/icons.tsx";
import { useState } from "react";
import { Input } from "#app/components/ui/input.tsx";
import type { CategoryGroup } from "#core/digger-types.ts";

/**
 * Every category as a checkbox named `categoryIds`, top-level ones in bold with their
 * sub-categories indented, in a scrolling box: the digger profile's categories and the Lead
 * alerts card's. A search box narrows the list as one types (a group stays while its name or
 * one of its sub-categories matches), and the chosen ones show above it as chips that can be
 * removed. The checkboxes stay real form fields: a hidden one that is checked is still sent.
 */
export function CategoryChecklist({
  categories,
  selected,
  label,
  className = "max-h-80",
}: {
  categories: CategoryGroup[];
  selected: ReadonlySet<string>;
  label: string;
  className?: string;
}) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(selected);
  const [query, setQuery] = useState("");
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };
  const names = new Map(categories.flatMap((g) => [[g.id, g.name] as const, ...g.children.map((c) => [c.id, c.name] as const)]));
  const term = query.trim().toLowerCase();
  const matches = (name: string) => term === "" || name.toLowerCase().includes(term);
  const searchId = `${label.replace(/\W+/g, "-").toLowerCase()}-search`;
  return (
    <div className="grid gap-3">
      {chosen.size > 0 ? (
        <ul aria-label="Chosen categories" className="flex flex-wrap gap-2">
          {[...chosen].map((id) => (
            <li key={id} className="flex items-center gap-1 rounded-full border bg-muted px-3 py-1 text-sm">
              {names.get(id) ?? id}
              <button type="button" className="rounded-full p-0.5 hover:bg-background" aria-label={`Deselect ${names.get(id) ?? "category"}`} onClick={() => toggle(id, false)}>
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor={searchId} className="sr-only">
        Search categories
      </label>
      <Input
        id={searchId}
        type="search"
        placeholder="Search categories"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        // Enter narrows the list; it must not send the form.
        onKeyDown={(e) => {
          if (e.key === "Enter") e.preventDefault();
        }}
      />
      <div className={`grid gap-4 overflow-y-auto rounded-md border p-4 sm:grid-cols-2 ${className}`} tabIndex={0} aria-label={label}>
        {categories.map((group) => {
          const groupShown = matches(group.name) || group.children.some((c) => matches(c.name));
          return (
            <div key={group.id} className="grid content-start gap-1.5" hidden={!groupShown}>
              <CategoryOption id={group.id} name={group.name} checked={chosen.has(group.id)} onChange={toggle} strong />
              {group.children.map((child) => (
                <div key={child.id} className="pl-6" hidden={!(matches(child.name) || matches(group.name))}>
                  <CategoryOption id={child.id} name={child.name} checked={chosen.has(child.id)} onChange={toggle} />
                </div>
              ))}
            </div>
          );
        })}
        {categories.some((g) => matches(g.name) || g.children.some((c) => matches(c.name))) ? null : (
          <p className="text-sm text-muted-foreground">No category matches.</p>
        )}
      </div>
    </div>
  );
}

function CategoryOption({
  id,
  name,
  checked,
  onChange,
  strong,
}: {
  id: string;
  name: string;
  checked: boolean;
  onChange: (id: string, on: boolean) => void;
  strong?: boolean;
}) {
  return (
    <label className={`flex items-center gap-2 text-sm ${strong ? "font-medium" : ""}`}>
      <input
        type="checkbox"
        name="categoryIds"
        value={id}
        checked={checked}
        onChange={(e) => onChange(id, e.target.checked)}
        className="size-4 shrink-0 accent-[var(--primary-strong)]"
      />
      {name}
    </label>
  );
}
