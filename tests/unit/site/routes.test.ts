import { describe, expect, test } from 'vitest'
import { afterLogin, appRedirect, loginFor } from '../../../site/src/lib/routes'
import type { User } from '../../../api/users/users'

const user = { id: 'u', role: 'REGULAR' } as User

describe('the login a page without a session goes to, and the way back', () => {
  test.each([
    ['/app/settings/profile', '/login?redirect=%2Fapp%2Fsettings%2Fprofile'],
    ['/app/conversations/a/character/b?sse=false', '/login?redirect=%2Fapp%2Fconversations%2Fa%2Fcharacter%2Fb%3Fsse%3Dfalse'],
    ['/app/settings#top', '/login?redirect=%2Fapp%2Fsettings'],
    ['/app', '/login'],
    ['/app/select-character', '/login'],
    ['/admin/app/dashboard', '/admin/login'],
    ['/', '/login'],
    ['/login?redirect=%2Fapp', '/login'],
    ['/admin/app/users?page=2', '/admin/login?redirect=%2Fadmin%2Fapp%2Fusers%3Fpage%3D2'],
  ])('%s → %s', (from, to) => expect(loginFor(from)).toBe(to))

  test.each([
    ['?redirect=%2Fapp%2Fsettings%2Fprofile', '/app/settings/profile'],
    ['?redirect=%2Fapp%2Fconversations%2Fa%2Fcharacter%2Fb%3Fsse%3Dfalse', '/app/conversations/a/character/b?sse=false'],
    ['', '/app/select-character'],
    ['?redirect=', '/app/select-character'],
    ['?redirect=%2F%2Fevil.example%2Fapp', '/app/select-character'],
    ['?redirect=https%3A%2F%2Fevil.example%2Fapp', '/app/select-character'],
    ['?redirect=%2F%5Cevil.example', '/app/select-character'],
    ['?redirect=%2Fadmin%2Fapp%2Fusers', '/app/select-character'],
    ['?redirect=%2Fapplication', '/app/select-character'],
    ['?redirect=%2Flogin', '/app/select-character'],
  ])('app login %s → %s', (search, to) => expect(afterLogin(search, '/app/select-character')).toBe(to))

  test('the admin login returns only into the admin console', () => {
    expect(afterLogin('?redirect=%2Fadmin%2Fapp%2Fusers', '/admin/app/dashboard')).toBe('/admin/app/users')
    expect(afterLogin('?redirect=%2Fapp%2Fsettings', '/admin/app/dashboard')).toBe('/admin/app/dashboard')
  })

  test('the middleware decision carries the page and its query', () => {
    expect(appRedirect('/app/settings/', null, '?from=x')).toBe('/login?redirect=%2Fapp%2Fsettings%3Ffrom%3Dx')
    expect(appRedirect('/admin/app/users', null, '')).toBe('/admin/login?redirect=%2Fadmin%2Fapp%2Fusers')
    expect(appRedirect('/login', user, '?redirect=%2Fapp%2Fsettings')).toBe('/app/settings')
    expect(appRedirect('/login', user, '')).toBe('/app')
    expect(appRedirect('/admin/login', user, '?redirect=%2Fadmin%2Fapp%2Fsettings')).toBe('/admin/app/settings')
    expect(appRedirect('/login', null, '?redirect=%2Fapp%2Fsettings')).toBeNull()
  })
})
