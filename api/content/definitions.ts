// The editable content definitions of spec §3. They are code, not rows: the features that read a slug
// (onboarding hints, relationship types, plans, music, support, crisis help) rely on its fields.

export type Lang = 'ENUS' | 'ZHTW' | 'ZHCN'
export const LANGS: readonly Lang[] = ['ENUS', 'ZHTW', 'ZHCN']
export const isLang = (s: string): s is Lang => (LANGS as readonly string[]).includes(s)

export type FieldType = 'string' | 'number' | 'boolean' | 'select' | 'mapping-many'

export interface SelectOption {
  key: string
  text: string
}

export interface EditableField {
  fieldName: string
  header: string
  type: FieldType
  /** number: smallest value; string: fewest characters. */
  min: number | null
  /** number: largest value; string: most characters. */
  max: number | null
  /** The allowed keys of a select or mapping-many field. */
  selectOptions: SelectOption[] | null
  /** A string field holding a link or media address (only site paths, http(s) and mailto are taken). */
  format?: 'url'
}

export interface ContentDefinition {
  slug: string
  header: string
  description: string
  hasLocale: boolean
  /** The string fields translated per language (edited with PATCH …/locale/{locale}). */
  localeRequiredFields: string[]
  editableFields: EditableField[]
  /** Readable without signing in: pages rendered before sign-in, or on the server without the visitor's cookie. */
  isPublic: boolean
}

type FieldSpec = Pick<EditableField, 'fieldName' | 'header' | 'type'> & Partial<EditableField>
const field = (f: FieldSpec): EditableField => ({ min: null, max: null, selectOptions: null, ...f })
const text = (fieldName: string, header: string, max: number) => field({ fieldName, header, type: 'string', max })
const url = (fieldName: string, header: string) => field({ fieldName, header, type: 'string', max: 2000, format: 'url' })
const options = (keys: readonly string[]) => keys.map((key) => ({ key, text: key }))

// Spec §3: the relationship types a person card may carry.
export const RELATIONSHIP_TYPES = [
  'COLLEAGUE', 'PARENTS', 'UNCLE', 'NIECE', 'SIBLINGS', 'CHILDREN', 'GRANDCHILDREN', 'AUNTY',
  'GRANDPARENTS', 'COUSINS', 'NEPHEW', 'MENTOR_ADVISOR', 'PAST_RELATIONSHIP', 'ROMANTIC_PARTNER',
  'CLOSE_FRIEND', 'SOMEONE_I_HAVE_LOST',
] as const
export const SCREENS = ['onboarding', 'select-character', 'chat', 'relations', 'upload-chat-history'] as const
export const CRISIS_REGIONS = [
  { key: 'US', text: 'United States' },
  { key: 'CA', text: 'Canada' },
  { key: 'GB', text: 'United Kingdom' },
  { key: 'IE', text: 'Ireland' },
  { key: 'AU', text: 'Australia' },
  { key: 'NZ', text: 'New Zealand' },
  { key: 'TW', text: 'Taiwan' },
  { key: 'HK', text: 'Hong Kong' },
  { key: 'CN', text: 'Mainland China' },
  { key: 'SG', text: 'Singapore' },
  { key: 'MY', text: 'Malaysia' },
  { key: 'JP', text: 'Japan' },
  { key: 'INTL', text: 'Everywhere else' },
]
export const PLAN_PERIODS = ['day', 'week', 'month', 'year'] as const

export const DEFINITIONS: readonly ContentDefinition[] = [
  {
    slug: 'role-hints',
    header: 'Role hints',
    description: 'Examples that rotate in the onboarding step "who do you want to become".',
    hasLocale: true,
    localeRequiredFields: ['text'],
    editableFields: [text('text', 'Hint', 200)],
    isPublic: false,
  },
  {
    slug: 'relationship-types',
    header: 'Relationship types',
    description: 'The kinds of relationship a person card can have, with the chip colour shown on the dark theme.',
    hasLocale: true,
    localeRequiredFields: ['label', 'description'],
    editableFields: [
      field({ fieldName: 'type', header: 'Type', type: 'select', selectOptions: options(RELATIONSHIP_TYPES) }),
      text('label', 'Label', 40),
      text('description', 'Description', 200),
      field({ fieldName: 'colour', header: 'Colour (hex)', type: 'string', min: 4, max: 9 }),
    ],
    isPublic: false,
  },
  {
    slug: 'subscription-plans',
    header: 'Subscription plans',
    description: 'Plan copy and prices on the plan page. What ECPay charges comes from the billing configuration.',
    hasLocale: true,
    localeRequiredFields: ['name', 'description'],
    editableFields: [
      text('planId', 'Plan id', 40),
      text('name', 'Name', 60),
      text('description', 'Description', 300),
      field({ fieldName: 'priceUsd', header: 'Price (USD)', type: 'number', min: 0, max: 10_000 }),
      field({ fieldName: 'twdAmount', header: 'Amount (TWD)', type: 'number', min: 0, max: 1_000_000 }),
      field({ fieldName: 'period', header: 'Period', type: 'select', selectOptions: options(PLAN_PERIODS) }),
      field({ fieldName: 'messageAllowance', header: 'Messages per period', type: 'number', min: 0, max: 100_000 }),
      field({ fieldName: 'unlimitedMessages', header: 'Unlimited messages', type: 'boolean' }),
    ],
    isPublic: true,
  },
  {
    slug: 'background-music',
    header: 'Background music',
    description: 'Tracks and the screens they play on. A row with an empty URL plays nothing (no music toggle).',
    hasLocale: false,
    localeRequiredFields: [],
    editableFields: [
      text('title', 'Title', 100),
      url('url', 'Track URL'),
      field({ fieldName: 'volume', header: 'Volume (%)', type: 'number', min: 0, max: 100 }),
      field({ fieldName: 'screens', header: 'Screens', type: 'mapping-many', selectOptions: options(SCREENS) }),
    ],
    isPublic: true,
  },
  {
    slug: 'support',
    header: 'Support',
    description: 'The customer-support page and the terms and privacy links of the login page.',
    hasLocale: false,
    localeRequiredFields: [],
    editableFields: [text('email', 'Support email', 320), url('termsUrl', 'Terms URL'), url('privacyUrl', 'Privacy URL')],
    isPublic: true,
  },
  {
    slug: 'crisis-resources',
    header: 'Crisis resources',
    description: 'Helplines shown when a conversation suggests someone may be in danger, per region and language.',
    hasLocale: true,
    localeRequiredFields: ['text'],
    editableFields: [
      field({ fieldName: 'region', header: 'Region', type: 'select', selectOptions: CRISIS_REGIONS }),
      text('text', 'Text', 1000),
      // Where the numbers were checked, so the next person to review them knows where to look.
      text('source', 'Source', 300),
    ],
    isPublic: true,
  },
]

export const findDefinition = (slug: string) => DEFINITIONS.find((d) => d.slug === slug) ?? null
