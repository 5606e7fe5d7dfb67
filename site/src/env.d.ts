/// <reference types="astro/client" />
declare namespace App {
  interface Locals {
    user: import('../../api/users/users').User | null
    lang: import('./lib/i18n').Lang
    t: import('./lib/translate').Translate
    resources: Record<string, unknown>
  }
}
