import { asc, isNull } from "drizzle-orm";
import type { Database } from "./db/client.ts";
import { categories } from "./db/schema.ts";

export interface CategoryOption {
  id: string;
  name: string;
  description: string | null;
}

/** The top-level categories, by name: the post-gig dropdown and the browse filters. */
export function listTopLevelCategories(db: Database): Promise<CategoryOption[]> {
  return db
    .select({ id: categories.id, name: categories.name, description: categories.description })
    .from(categories)
    .where(isNull(categories.parentCategoryId))
    .orderBy(asc(categories.name));
}
