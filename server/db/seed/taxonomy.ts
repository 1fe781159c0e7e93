/**
 * Service taxonomy used by the database seed.
 * Pure data: 12 top-level categories, each with 4-8 sub-categories.
 * Slugs are lowercase kebab-case and unique across the whole taxonomy.
 */

interface SubcategorySeed {
  slug: string
  name: string
  description: string
}

export interface CategorySeed extends SubcategorySeed {
  children: SubcategorySeed[]
}

export const taxonomy: CategorySeed[] = [
  {
    slug: 'home-improvement',
    name: 'Home Improvement',
    description: 'Repairs, renovations and upgrades that keep a home safe, comfortable and up to date.',
    children: [
      { slug: 'handyman', name: 'Handyman Services', description: 'General repairs and small jobs around the house, from patching walls to hanging shelves.' },
      { slug: 'carpentry', name: 'Carpentry', description: 'Custom woodwork, trim, framing, decks and built-in storage.' },
      { slug: 'painting', name: 'Painting', description: 'Interior and exterior painting, staining and surface preparation.' },
      { slug: 'flooring', name: 'Flooring', description: 'Installation and repair of hardwood, laminate, vinyl plank and tile floors.' },
      { slug: 'roofing', name: 'Roofing', description: 'Roof inspections, leak repairs, shingle replacement and gutter work.' },
      { slug: 'drywall', name: 'Drywall', description: 'Drywall hanging, taping, texture matching and water damage repair.' },
      { slug: 'kitchen-remodeling', name: 'Kitchen Remodeling', description: 'Full and partial kitchen renovations including cabinets, counters and layout changes.' },
      { slug: 'bathroom-remodeling', name: 'Bathroom Remodeling', description: 'Bathroom updates from new vanities and tile to complete gut renovations.' },
    ],
  },
  {
    slug: 'plumbing',
    name: 'Plumbing',
    description: 'Licensed plumbing work for water supply, drainage and fixtures in homes and businesses.',
    children: [
      { slug: 'leak-repair', name: 'Leak Repair', description: 'Finding and fixing leaking pipes, faucets, valves and supply lines.' },
      { slug: 'drain-cleaning', name: 'Drain Cleaning', description: 'Clearing clogged sinks, tubs, toilets and floor drains.' },
      { slug: 'water-heaters', name: 'Water Heaters', description: 'Repair and replacement of tank and tankless water heaters.' },
      { slug: 'fixture-installation', name: 'Fixture Installation', description: 'Installing faucets, toilets, showers, sinks and garbage disposals.' },
      { slug: 'pipe-replacement', name: 'Pipe Replacement', description: 'Repiping homes and replacing corroded or outdated supply and drain lines.' },
      { slug: 'sewer-line-services', name: 'Sewer Line Services', description: 'Camera inspections, root removal and repair of main sewer lines.' },
    ],
  },
  {
    slug: 'electrical',
    name: 'Electrical',
    description: 'Safe, code-compliant electrical work by qualified electricians.',
    children: [
      { slug: 'electrical-repair', name: 'Electrical Repair', description: 'Troubleshooting dead outlets, tripping breakers and faulty wiring.' },
      { slug: 'lighting-installation', name: 'Lighting Installation', description: 'Recessed, pendant, under-cabinet and outdoor lighting installation.' },
      { slug: 'panel-upgrades', name: 'Panel Upgrades', description: 'Upgrading electrical panels and service capacity for modern loads.' },
      { slug: 'ev-charger-installation', name: 'EV Charger Installation', description: 'Installing Level 2 electric vehicle chargers in garages and driveways.' },
      { slug: 'ceiling-fans', name: 'Ceiling Fans', description: 'Installing and replacing ceiling fans, including new wiring and braces.' },
      { slug: 'generator-installation', name: 'Generator Installation', description: 'Standby and portable generator hookups with transfer switches.' },
    ],
  },
  {
    slug: 'cleaning',
    name: 'Cleaning',
    description: 'Residential and commercial cleaning services, one-time or recurring.',
    children: [
      { slug: 'house-cleaning', name: 'House Cleaning', description: 'Regular cleaning of kitchens, bathrooms, floors and living spaces.' },
      { slug: 'deep-cleaning', name: 'Deep Cleaning', description: 'Top-to-bottom cleaning that reaches baseboards, appliances and neglected corners.' },
      { slug: 'move-out-cleaning', name: 'Move-Out Cleaning', description: 'Thorough cleaning to get a rental or sold home ready for the next occupant.' },
      { slug: 'office-cleaning', name: 'Office Cleaning', description: 'Janitorial services for offices, studios and small commercial spaces.' },
      { slug: 'carpet-cleaning', name: 'Carpet Cleaning', description: 'Steam and dry carpet and upholstery cleaning, including stain treatment.' },
      { slug: 'window-cleaning', name: 'Window Cleaning', description: 'Interior and exterior window, screen and track cleaning.' },
    ],
  },
  {
    slug: 'landscaping-gardening',
    name: 'Landscaping & Gardening',
    description: 'Design, installation and upkeep of lawns, gardens and outdoor living spaces.',
    children: [
      { slug: 'lawn-care', name: 'Lawn Care', description: 'Mowing, edging, fertilizing and seasonal lawn treatments.' },
      { slug: 'garden-design', name: 'Garden Design', description: 'Planting plans and garden installation suited to the local climate.' },
      { slug: 'tree-services', name: 'Tree Services', description: 'Tree trimming, removal, stump grinding and health assessments.' },
      { slug: 'irrigation-systems', name: 'Irrigation Systems', description: 'Sprinkler and drip irrigation installation, repair and winterization.' },
      { slug: 'hardscaping', name: 'Hardscaping', description: 'Patios, walkways, retaining walls and fire pits built from stone and pavers.' },
      { slug: 'yard-cleanup', name: 'Yard Cleanup', description: 'Leaf removal, brush clearing and seasonal yard cleanups.' },
    ],
  },
  {
    slug: 'moving-delivery',
    name: 'Moving & Delivery',
    description: 'Help moving, hauling, assembling and delivering just about anything.',
    children: [
      { slug: 'local-moving', name: 'Local Moving', description: 'Loading, transport and unloading for moves within the same metro area.' },
      { slug: 'long-distance-moving', name: 'Long-Distance Moving', description: 'Interstate and cross-country household moves.' },
      { slug: 'packing-services', name: 'Packing Services', description: 'Professional packing and unpacking with proper materials.' },
      { slug: 'furniture-assembly', name: 'Furniture Assembly', description: 'Assembly of flat-pack furniture, beds, desks and shelving units.' },
      { slug: 'junk-removal', name: 'Junk Removal', description: 'Hauling away unwanted furniture, appliances and clutter.' },
      { slug: 'courier-delivery', name: 'Courier Delivery', description: 'Same-day pickup and delivery of documents, parcels and small items.' },
    ],
  },
  {
    slug: 'auto-services',
    name: 'Auto Services',
    description: 'Car repair, maintenance and care from mobile and shop-based pros.',
    children: [
      { slug: 'mobile-mechanic', name: 'Mobile Mechanic', description: 'Maintenance and repairs performed at your home or workplace.' },
      { slug: 'auto-detailing', name: 'Auto Detailing', description: 'Interior and exterior detailing, paint correction and ceramic coating.' },
      { slug: 'auto-body-repair', name: 'Auto Body Repair', description: 'Dent removal, collision repair and paint touch-ups.' },
      { slug: 'tire-services', name: 'Tire Services', description: 'Tire mounting, balancing, rotation and flat repair.' },
      { slug: 'pre-purchase-inspection', name: 'Pre-Purchase Inspection', description: 'Independent inspections of used vehicles before you buy.' },
    ],
  },
  {
    slug: 'tech-it-support',
    name: 'Tech & IT Support',
    description: 'Hands-on help with computers, networks and connected devices for homes and small businesses.',
    children: [
      { slug: 'computer-repair', name: 'Computer Repair', description: 'Diagnosing and repairing desktops and laptops, including hardware upgrades.' },
      { slug: 'network-setup', name: 'Network Setup', description: 'Wi-Fi, mesh network and wired network installation and troubleshooting.' },
      { slug: 'smart-home-setup', name: 'Smart Home Setup', description: 'Installing and configuring smart thermostats, locks, cameras and hubs.' },
      { slug: 'data-recovery', name: 'Data Recovery', description: 'Recovering files from failed drives, phones and memory cards.' },
      { slug: 'cybersecurity', name: 'Cybersecurity', description: 'Security audits, malware removal and account protection.' },
      { slug: 'small-business-it', name: 'Small Business IT', description: 'Ongoing IT support, device management and backups for small offices.' },
    ],
  },
  {
    slug: 'web-software-development',
    name: 'Web & Software Development',
    description: 'Websites, apps and custom software built by experienced developers.',
    children: [
      { slug: 'website-development', name: 'Website Development', description: 'Custom marketing sites and web applications built to be fast and accessible.' },
      { slug: 'ecommerce-development', name: 'E-commerce Development', description: 'Online stores on Shopify, WooCommerce or custom platforms.' },
      { slug: 'mobile-app-development', name: 'Mobile App Development', description: 'Native and cross-platform iOS and Android applications.' },
      { slug: 'wordpress-development', name: 'WordPress Development', description: 'WordPress themes, plugins, speed fixes and maintenance.' },
      { slug: 'api-integrations', name: 'API Integrations', description: 'Connecting payment, accounting, CRM and other third-party services.' },
      { slug: 'devops-cloud', name: 'DevOps & Cloud', description: 'Cloud hosting, deployment pipelines and infrastructure automation.' },
    ],
  },
  {
    slug: 'design-creative',
    name: 'Design & Creative',
    description: 'Visual design and creative services for brands, products and spaces.',
    children: [
      { slug: 'logo-branding', name: 'Logo & Branding', description: 'Logos, color palettes and brand guidelines for new and growing businesses.' },
      { slug: 'graphic-design', name: 'Graphic Design', description: 'Print and digital graphics such as flyers, menus, brochures and social posts.' },
      { slug: 'ui-ux-design', name: 'UI/UX Design', description: 'User research, wireframes and polished interfaces for web and mobile products.' },
      { slug: 'illustration', name: 'Illustration', description: 'Custom illustrations for books, packaging, editorial and marketing.' },
      { slug: 'video-editing', name: 'Video Editing', description: 'Editing, color grading and motion graphics for video content.' },
      { slug: 'interior-design', name: 'Interior Design', description: 'Space planning, furnishing and decor for homes and businesses.' },
    ],
  },
  {
    slug: 'events-photography',
    name: 'Events & Photography',
    description: 'Professionals who plan, staff and capture weddings, parties and corporate events.',
    children: [
      { slug: 'wedding-photography', name: 'Wedding Photography', description: 'Full-day and elopement wedding photography coverage.' },
      { slug: 'portrait-photography', name: 'Portrait Photography', description: 'Family, headshot and personal portrait sessions.' },
      { slug: 'event-planning', name: 'Event Planning', description: 'Planning and coordination of private and corporate events.' },
      { slug: 'catering', name: 'Catering', description: 'Food and beverage service for events of every size.' },
      { slug: 'dj-services', name: 'DJ Services', description: 'DJs and sound equipment for weddings, parties and corporate functions.' },
      { slug: 'videography', name: 'Videography', description: 'Event and promotional video production.' },
    ],
  },
  {
    slug: 'tutoring-lessons',
    name: 'Tutoring & Lessons',
    description: 'One-on-one and small group instruction for students and lifelong learners.',
    children: [
      { slug: 'math-tutoring', name: 'Math Tutoring', description: 'Help with arithmetic through calculus for students of all ages.' },
      { slug: 'test-prep', name: 'Test Prep', description: 'Preparation for the SAT, ACT, GRE and other standardized tests.' },
      { slug: 'language-lessons', name: 'Language Lessons', description: 'Conversation and grammar lessons in Spanish, French, Mandarin and more.' },
      { slug: 'music-lessons', name: 'Music Lessons', description: 'Piano, guitar, voice and other instrument lessons for beginners and beyond.' },
      { slug: 'coding-lessons', name: 'Coding Lessons', description: 'Programming lessons in Python, JavaScript and other languages.' },
    ],
  },
]
