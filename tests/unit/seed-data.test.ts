import { describe, it, expect } from 'vitest'
import { taxonomy } from '../../server/db/seed/taxonomy.ts'
import { demoClients, demoDiggers, demoGigs, type DemoGig } from '../../server/db/seed/demo-data.ts'
import { pastLeads } from '../../server/db/seed/demo-reviews.ts'

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
const HANDLE_RE = /^[a-z0-9_]{3,30}$/
const EXAMPLE_EMAIL_RE = /^[a-z0-9._+-]+@example\.com$/
const PHONE_RE = /^\(555\) 01\d-\d{4}$/
const CITY_RE = /^[A-Z][A-Za-z .'-]+, [A-Z]{2}$/
const PRINTABLE_ASCII_RE = /^[\x20-\x7E]*$/

const topLevelSlugs = new Set(taxonomy.map((c) => c.slug))
/** Maps every slug (top-level or child) to its top-level slug. */
const topLevelOf = new Map<string, string>()
for (const category of taxonomy) {
  topLevelOf.set(category.slug, category.slug)
  for (const child of category.children) topLevelOf.set(child.slug, category.slug)
}

function collectStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, out)
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, out)
  return out
}

function isWholeDollarCents(n: number | null): boolean {
  return n === null || (Number.isInteger(n) && n > 0 && n % 100 === 0)
}

describe('taxonomy', () => {
  it('has exactly 12 top-level categories with 4 to 8 children each', () => {
    expect(taxonomy).toHaveLength(12)
    for (const category of taxonomy) {
      expect(category.children.length, category.slug).toBeGreaterThanOrEqual(4)
      expect(category.children.length, category.slug).toBeLessThanOrEqual(8)
    }
  })

  it('uses lowercase kebab-case slugs that are unique across the whole taxonomy', () => {
    const all = taxonomy.flatMap((c) => [c.slug, ...c.children.map((s) => s.slug)])
    for (const slug of all) expect(slug).toMatch(SLUG_RE)
    expect(new Set(all).size).toBe(all.length)
  })

  it('has unique names among top-level categories and within each parent', () => {
    const topNames = taxonomy.map((c) => c.name)
    expect(new Set(topNames).size).toBe(topNames.length)
    for (const category of taxonomy) {
      const names = category.children.map((s) => s.name)
      expect(new Set(names).size, category.slug).toBe(names.length)
    }
  })

  it('gives every entry a non-empty name and a one-sentence description', () => {
    const entries = taxonomy.flatMap((c) => [c, ...c.children])
    for (const entry of entries) {
      expect(entry.name.trim().length, entry.slug).toBeGreaterThan(0)
      expect(entry.name, entry.slug).toBe(entry.name.trim())
      expect(entry.description.trim().length, entry.slug).toBeGreaterThanOrEqual(20)
      expect(entry.description, entry.slug).toMatch(/^[A-Z][^.!?]*[.!?]$/)
    }
  })
})

describe('demo diggers', () => {
  it('has exactly 20 diggers', () => {
    expect(demoDiggers).toHaveLength(20)
  })

  it('uses valid, unique handles', () => {
    for (const d of demoDiggers) expect(d.handle).toMatch(HANDLE_RE)
    const handles = demoDiggers.map((d) => d.handle)
    expect(new Set(handles).size).toBe(handles.length)
  })

  it('uses unique @example.com emails', () => {
    for (const d of demoDiggers) expect(d.email).toMatch(EXAMPLE_EMAIL_RE)
    const emails = demoDiggers.map((d) => d.email)
    expect(new Set(emails).size).toBe(emails.length)
  })

  it('has complete profile text within limits', () => {
    for (const d of demoDiggers) {
      expect(d.fullName.trim().length, d.handle).toBeGreaterThan(0)
      expect(d.businessName.trim().length, d.handle).toBeGreaterThan(0)
      expect(d.profession.trim().length, d.handle).toBeGreaterThan(0)
      expect(d.phone, d.handle).toMatch(PHONE_RE)
      expect(d.location, d.handle).toMatch(CITY_RE)
      const bioLength = d.bio.trim().length
      expect(bioLength, d.handle).toBeGreaterThanOrEqual(80)
      expect(bioLength, d.handle).toBeLessThanOrEqual(600)
      if (d.availability !== null) expect(d.availability.trim().length, d.handle).toBeGreaterThan(0)
      if (d.portfolioUrl !== null) expect(d.portfolioUrl, d.handle).toMatch(/^https:\/\/example\.com\/\S+$/)
    }
  })

  it('has sane hourly rates and experience', () => {
    for (const d of demoDiggers) {
      for (const rate of [d.hourlyRateMinCents, d.hourlyRateMaxCents]) {
        if (rate !== null) {
          expect(Number.isInteger(rate), d.handle).toBe(true)
          expect(rate, d.handle).toBeGreaterThan(0)
        }
      }
      if (d.hourlyRateMinCents !== null && d.hourlyRateMaxCents !== null) {
        expect(d.hourlyRateMinCents, d.handle).toBeLessThanOrEqual(d.hourlyRateMaxCents)
      }
      if (d.yearsExperience !== null) {
        expect(Number.isInteger(d.yearsExperience), d.handle).toBe(true)
        expect(d.yearsExperience, d.handle).toBeGreaterThanOrEqual(0)
      }
    }
  })

  it('has valid credential flags and no typed figures (ratings come from seeded reviews)', () => {
    for (const d of demoDiggers) {
      expect(typeof d.isInsured).toBe('boolean')
      expect(typeof d.isBonded).toBe('boolean')
      expect(['yes', 'no', 'not_required']).toContain(d.isLicensed)
      for (const typed of ['averageRating', 'totalRatings', 'completionRate', 'responseTimeHours', 'verified']) {
        expect(Object.keys(d), d.handle).not.toContain(typed)
      }
    }
  })

  it('plans past work whose reviews are valid and varied, with one digger left without any', () => {
    const leads = pastLeads(demoDiggers, demoClients.length)
    const reviews = leads.flatMap((l) => (l.review ? [l.review] : []))
    for (const lead of leads) {
      expect(lead.title.length).toBeGreaterThanOrEqual(10)
      expect(lead.title.length).toBeLessThanOrEqual(100)
      expect(lead.description.length).toBeGreaterThanOrEqual(50)
      // Reviewed after it was bought, and not in the future.
      if (lead.review) expect(lead.review.daysAgo).toBeLessThan(lead.purchasedDaysAgo)
      if (lead.review) expect(lead.review.daysAgo).toBeGreaterThan(0)
    }
    for (const r of reviews) {
      expect([1, 2, 3, 4, 5]).toContain(r.rating)
      expect(r.body.trim().length).toBeGreaterThanOrEqual(20)
      if (r.reply !== null) expect(r.reply.trim().length).toBeGreaterThanOrEqual(10)
    }
    expect(new Set(reviews.map((r) => r.rating)).size).toBeGreaterThanOrEqual(4)
    const reviewed = new Set(leads.filter((l) => l.review).map((l) => l.diggerIndex))
    expect(reviewed.size).toBe(demoDiggers.length - 1)
    expect(leads.some((l) => l.hired && !l.review)).toBe(true)
    expect(leads.some((l) => !l.hired && l.review)).toBe(true)
  })

  it('links each digger to 1-5 distinct existing categories', () => {
    for (const d of demoDiggers) {
      expect(d.categorySlugs.length, d.handle).toBeGreaterThanOrEqual(1)
      expect(d.categorySlugs.length, d.handle).toBeLessThanOrEqual(5)
      expect(new Set(d.categorySlugs).size, d.handle).toBe(d.categorySlugs.length)
      for (const slug of d.categorySlugs) expect(topLevelOf.has(slug), `${d.handle}: ${slug}`).toBe(true)
    }
  })

  it('has 1-3 references with @example.com emails and well-formed phones', () => {
    for (const d of demoDiggers) {
      expect(d.references.length, d.handle).toBeGreaterThanOrEqual(1)
      expect(d.references.length, d.handle).toBeLessThanOrEqual(3)
      for (const ref of d.references) {
        expect(ref.name.trim().length, d.handle).toBeGreaterThan(0)
        expect(ref.email, d.handle).toMatch(EXAMPLE_EMAIL_RE)
        if (ref.phone !== null) expect(ref.phone, d.handle).toMatch(PHONE_RE)
        if (ref.projectDescription !== null) expect(ref.projectDescription.trim().length, d.handle).toBeGreaterThan(0)
      }
    }
  })

  it('is varied enough for sorting and filtering to be meaningful', () => {
    expect(new Set(demoDiggers.map((d) => d.profession)).size).toBeGreaterThanOrEqual(15)
    expect(new Set(demoDiggers.map((d) => d.hourlyRateMinCents)).size).toBeGreaterThanOrEqual(8)
    expect(new Set(demoDiggers.map((d) => d.yearsExperience)).size).toBeGreaterThanOrEqual(8)
    expect(demoDiggers.some((d) => d.hourlyRateMinCents === null)).toBe(true)
    expect(demoDiggers.some((d) => d.hourlyRateMaxCents === null)).toBe(true)
    expect(demoDiggers.some((d) => d.yearsExperience === null)).toBe(true)
    expect(demoDiggers.some((d) => d.portfolioUrl === null)).toBe(true)
    expect(demoDiggers.some((d) => d.portfolioUrl !== null)).toBe(true)
    const topLevelsCovered = new Set(demoDiggers.flatMap((d) => d.categorySlugs.map((s) => topLevelOf.get(s))))
    expect(topLevelsCovered.size).toBeGreaterThanOrEqual(10)
  })
})

describe('demo consumers', () => {
  it('has 6 consumers with unique @example.com emails not shared with diggers', () => {
    expect(demoClients).toHaveLength(6)
    for (const c of demoClients) {
      expect(c.fullName.trim().length).toBeGreaterThan(0)
      expect(c.email).toMatch(EXAMPLE_EMAIL_RE)
    }
    const accountEmails = [...demoClients, ...demoDiggers].map((a) => a.email)
    expect(new Set(accountEmails).size).toBe(accountEmails.length)
  })
})

describe('demo gigs', () => {
  it('has exactly 50 gigs', () => {
    expect(demoGigs).toHaveLength(50)
  })

  it('references a valid consumer', () => {
    for (const g of demoGigs) {
      expect(Number.isInteger(g.clientIndex), g.title).toBe(true)
      expect(g.clientIndex, g.title).toBeGreaterThanOrEqual(0)
      expect(g.clientIndex, g.title).toBeLessThan(demoClients.length)
    }
    expect(new Set(demoGigs.map((g) => g.clientIndex)).size).toBe(demoClients.length)
  })

  it('has titles of 10-100 chars and descriptions of 50-2000 chars with 2-5 sentences', () => {
    for (const g of demoGigs) {
      const title = g.title.trim()
      expect(title.length, g.title).toBeGreaterThanOrEqual(10)
      expect(title.length, g.title).toBeLessThanOrEqual(100)
      const description = g.description.trim()
      expect(description.length, g.title).toBeGreaterThanOrEqual(50)
      expect(description.length, g.title).toBeLessThanOrEqual(2000)
      const sentences = description.match(/[.!?](?=\s|$)/g) ?? []
      expect(sentences.length, g.title).toBeGreaterThanOrEqual(2)
      expect(sentences.length, g.title).toBeLessThanOrEqual(5)
    }
  })

  it('has a US city location, a timeline and sane optional fields', () => {
    for (const g of demoGigs) {
      expect(g.location, g.title).toMatch(CITY_RE)
      expect(g.timeline.trim().length, g.title).toBeGreaterThan(0)
      if (g.contactPreferences !== null) expect(g.contactPreferences.trim().length, g.title).toBeGreaterThan(0)
      if (g.deadlineInDays !== null) {
        expect(Number.isInteger(g.deadlineInDays), g.title).toBe(true)
        expect(g.deadlineInDays, g.title).toBeGreaterThanOrEqual(1)
      }
    }
  })

  it('uses whole-dollar budgets with min <= max', () => {
    for (const g of demoGigs) {
      expect(isWholeDollarCents(g.budgetMinCents), g.title).toBe(true)
      expect(isWholeDollarCents(g.budgetMaxCents), g.title).toBe(true)
      if (g.budgetMinCents !== null && g.budgetMaxCents !== null) {
        expect(g.budgetMinCents, g.title).toBeLessThanOrEqual(g.budgetMaxCents)
      }
    }
  })

  it('covers every budget band and edge case', () => {
    const count = (pred: (g: DemoGig) => boolean) => demoGigs.filter(pred).length
    const both = (g: DemoGig) => g.budgetMinCents !== null && g.budgetMaxCents !== null
    expect(count((g) => both(g) && (g.budgetMaxCents ?? 0) <= 100000)).toBeGreaterThanOrEqual(3)
    expect(
      count((g) => both(g) && (g.budgetMinCents ?? 0) >= 100000 && (g.budgetMaxCents ?? Infinity) <= 500000),
    ).toBeGreaterThanOrEqual(3)
    expect(count((g) => both(g) && (g.budgetMinCents ?? 0) >= 500000)).toBeGreaterThanOrEqual(3)
    expect(count((g) => (g.budgetMinCents ?? 0) >= 2000000)).toBeGreaterThanOrEqual(2)
    expect(count((g) => g.budgetMinCents === null && g.budgetMaxCents === null)).toBeGreaterThanOrEqual(2)
    expect(count((g) => g.budgetMinCents !== null && g.budgetMaxCents === null)).toBeGreaterThanOrEqual(2)
    expect(count((g) => g.budgetMinCents === null && g.budgetMaxCents !== null)).toBeGreaterThanOrEqual(2)
  })

  it('uses existing category slugs, mixing top-level and sub-category slugs', () => {
    for (const g of demoGigs) expect(topLevelOf.has(g.categorySlug), `${g.title}: ${g.categorySlug}`).toBe(true)
    expect(demoGigs.some((g) => topLevelSlugs.has(g.categorySlug))).toBe(true)
    expect(demoGigs.some((g) => !topLevelSlugs.has(g.categorySlug))).toBe(true)
  })

  it('uses every top-level category at least twice', () => {
    const usage = new Map<string, number>()
    for (const g of demoGigs) {
      const top = topLevelOf.get(g.categorySlug)
      if (top !== undefined) usage.set(top, (usage.get(top) ?? 0) + 1)
    }
    for (const category of taxonomy) expect(usage.get(category.slug) ?? 0, category.slug).toBeGreaterThanOrEqual(2)
  })

  it('has distinct postedHoursAgo values between 0.5 and 720', () => {
    for (const g of demoGigs) {
      expect(g.postedHoursAgo, g.title).toBeGreaterThanOrEqual(0.5)
      expect(g.postedHoursAgo, g.title).toBeLessThanOrEqual(720)
    }
    const hours = demoGigs.map((g) => g.postedHoursAgo)
    expect(new Set(hours).size).toBe(hours.length)
  })

  it('has unique titles', () => {
    const titles = demoGigs.map((g) => g.title.trim().toLowerCase())
    expect(new Set(titles).size).toBe(titles.length)
  })
})

describe('text content', () => {
  it('is plain printable ASCII everywhere', () => {
    const strings = collectStrings({ taxonomy, demoDiggers, demoClients, demoGigs })
    for (const s of strings) expect(s, s).toMatch(PRINTABLE_ASCII_RE)
  })
})
