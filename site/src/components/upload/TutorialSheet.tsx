// The export tutorial (spec §2): a bottom sheet that first asks for the app, then shows its 4 steps in a
// carousel; Continue moves on and, on the last slide, closes and opens the file picker.
import { useEffect, useState } from 'react'
import { Drawer } from 'vaul'
import useEmblaCarousel from 'embla-carousel-react'
import { t } from '../../lib/clientI18n'

type Platform = 'line' | 'whatsapp'

// A phone with the part of the screen each step is about highlighted.
const HIGHLIGHTS = [
  { x: 150, y: 34, w: 26, h: 20 },
  { x: 40, y: 120, w: 120, h: 26 },
  { x: 40, y: 156, w: 120, h: 26 },
  { x: 40, y: 220, w: 120, h: 30 },
]

function PhoneStep({ platform, step }: { platform: Platform; step: number }) {
  const accent = platform === 'line' ? '#06c755' : '#25d366'
  const h = HIGHLIGHTS[step] ?? HIGHLIGHTS[0]
  return (
    <svg viewBox="0 0 200 300" width="160" height="240" aria-hidden="true" className="phone">
      <rect x="20" y="10" width="160" height="280" rx="22" fill="#141829" stroke="#2c3352" strokeWidth="3" />
      <rect x="30" y="28" width="140" height="30" rx="6" fill={accent} opacity="0.85" />
      {[70, 100, 130, 160, 190, 220, 250].map((y) => (
        <rect key={y} x="42" y={y} width={y % 60 === 10 ? 90 : 116} height="14" rx="7" fill="#2c3352" />
      ))}
      <rect x={h.x} y={h.y} width={h.w} height={h.h} rx="8" fill="none" stroke="#ffd59e" strokeWidth="3" />
      <circle cx={h.x + h.w} cy={h.y} r="11" fill="#ffd59e" />
      <text x={h.x + h.w} y={h.y + 4} textAnchor="middle" fontSize="12" fontWeight="700" fill="#120d2b">{step + 1}</text>
    </svg>
  )
}

function Carousel({ platform, onFinish, onSkip }: { platform: Platform; onFinish: () => void; onSkip: () => void }) {
  const steps = t(`upload.${platform}Steps`, { returnObjects: true }) as unknown as string[]
  const [viewport, embla] = useEmblaCarousel({ loop: false })
  const [index, setIndex] = useState(0)
  useEffect(() => {
    if (!embla) return
    const onSelect = () => setIndex(embla.selectedScrollSnap())
    embla.on('select', onSelect)
    return () => {
      embla.off('select', onSelect)
    }
  }, [embla])
  const last = index === steps.length - 1
  return (
    <div className="tutorial">
      <div className="embla" ref={viewport}>
        <div className="embla-track">
          {steps.map((text, i) => (
            <section key={i} className="embla-slide" aria-roledescription="slide" aria-label={t('upload.stepOf', { n: i + 1, total: steps.length })}>
              <PhoneStep platform={platform} step={i} />
              <p className="muted">{t('upload.stepOf', { n: i + 1, total: steps.length })}</p>
              <p className="step-text">{text}</p>
            </section>
          ))}
        </div>
      </div>
      <div className="dots" aria-hidden="true">
        {steps.map((_, i) => (
          <span key={i} className={i === index ? 'on' : ''} />
        ))}
      </div>
      <div className="dialog-actions">
        <button type="button" className="btn btn-ghost" onClick={onSkip}>{t('upload.skip')}</button>
        <button type="button" className="btn" onClick={() => (last ? onFinish() : embla?.scrollNext())}>{t('upload.next')}</button>
      </div>
    </div>
  )
}

export function TutorialSheet({ open, onOpenChange, onDone }: { open: boolean; onOpenChange: (open: boolean) => void; onDone: () => void }) {
  const [platform, setPlatform] = useState<Platform | null>(null)
  useEffect(() => {
    if (!open) setPlatform(null)
  }, [open])
  const finish = () => {
    onOpenChange(false)
    onDone()
  }
  return (
    <Drawer.Root open={open} onOpenChange={onOpenChange}>
      <Drawer.Portal>
        <Drawer.Overlay className="dialog-overlay" />
        <Drawer.Content className="sheet">
          <div className="sheet-handle" aria-hidden="true" />
          <Drawer.Title className="dialog-title">{platform ? t(`upload.${platform}`) : t('upload.sheetTitle')}</Drawer.Title>
          <Drawer.Description className={platform ? 'sr-only' : 'muted'}>{t('upload.sheetText')}</Drawer.Description>
          {!platform ? (
            <div className="platforms">
              <button type="button" className="platform line" onClick={() => setPlatform('line')}>{t('upload.line')}</button>
              <button type="button" className="platform whatsapp" onClick={() => setPlatform('whatsapp')}>{t('upload.whatsapp')}</button>
            </div>
          ) : (
            <Carousel platform={platform} onFinish={finish} onSkip={finish} />
          )}
          <button type="button" className="btn btn-ghost btn-block sheet-cancel" onClick={() => onOpenChange(false)}>{t('upload.cancel')}</button>
        </Drawer.Content>
      </Drawer.Portal>
    </Drawer.Root>
  )
}
