/**
 * Joins class names, leaving out the false ones (clsx). It does not merge them: a UI primitive's
 * own style is a component class of app.css, which any utility passed as className overrides
 * (docs/decisions/0062). Two utilities for one property in one list would leave the choice to
 * the stylesheet's order: tests/integration/class-lists.test.ts finds them on every page.
 */
export { clsx as cn } from "clsx";
