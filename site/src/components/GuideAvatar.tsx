// The small glowing guide of onboarding.
export function GuideAvatar({ size = 56, label }: { size?: number; label?: string }) {
  return (
    <span className="guide-avatar" style={{ width: size, height: size }} role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true}>
      <span className="guide-core" />
    </span>
  )
}
