// Chat-history import (spec §2 "Upload chat history", §4 "Chat-history import", §5): pick 1–3 .txt exports,
// check them and find the names, choose which name is you, then upload and analyze.
import { useRef, useState } from 'react'
import * as RadioGroup from '@radix-ui/react-radio-group'
import { toast } from '../lib/toast'
import { ErrorBoundary } from '../components/ErrorBoundary'
import { TutorialSheet } from '../components/upload/TutorialSheet'
import { useT } from '../lib/reactI18n'
import { api, ApiError } from '../lib/api'
import { showAlert } from '../lib/alertDialog'
import { formatFileSize } from '../lib/fileSize'

export const MAX_CHAT_FILES = 3
const FAKE_WAIT_MS = 2000

/** Why a file is left out of the batch: the server's reasons, TooLarge also found here before sending. */
type Problem = 'TooLarge' | 'NotText' | 'NotAChatExport'

interface Picked {
  key: string
  file: File
  problem: Problem | null
}

interface Props {
  characterId: string
  maxBytes: number
}

const isTxt = (f: File) => f.name.toLowerCase().endsWith('.txt')

function Upload({ characterId, maxBytes }: Props) {
  const t = useT()
  const [files, setFiles] = useState<Picked[]>([])
  const [step, setStep] = useState<'upload' | 'select-username'>('upload')
  const [names, setNames] = useState<string[]>([])
  const [me, setMe] = useState('')
  const [busy, setBusy] = useState(false)
  const [sheet, setSheet] = useState(false)
  const [dragging, setDragging] = useState(false)
  const picker = useRef<HTMLInputElement>(null)
  // Set before the first await, so a second click in the same moment finds it (state would not be updated yet).
  const sending = useRef(false)
  const unsupported = files.some((f) => !isTxt(f.file))
  // Files marked with a problem are left out; the others go on.
  const usable = files.filter((f) => f.problem === null)

  function add(list: FileList | File[] | null) {
    const incoming = Array.from(list ?? [])
    setFiles((current) => {
      const room = MAX_CHAT_FILES - current.length
      if (incoming.length > room) toast.error(t('upload.tooMany'))
      const taken = incoming
        .slice(0, Math.max(0, room))
        .map((file): Picked => ({ key: crypto.randomUUID(), file, problem: file.size > maxBytes ? 'TooLarge' : null }))
      return [...current, ...taken]
    })
    if (picker.current) picker.current.value = ''
  }

  const form = (userName?: string) => {
    const data = new FormData()
    usable.forEach((f) => data.append('files', f.file, f.file.name))
    if (userName) data.append('userName', userName)
    return data
  }

  /** Runs `action` unless one is already running: each button press starts at most one request. */
  async function once(action: () => Promise<void>) {
    if (sending.current) return
    sending.current = true
    setBusy(true)
    try {
      await action()
    } finally {
      sending.current = false
    }
  }

  const analyzeNames = () =>
    once(async () => {
      try {
        const result = await api<{ hasError: boolean; erroneousFiles: { fileName: string; reason: Problem }[]; names: string[] }>(
          `/chatbots/characters/${characterId}/chat-history`,
          { form: form(), query: { analyzeNameOnly: true }, silent: true },
        )
        const problems = new Map(result.erroneousFiles.map((f) => [f.fileName, f.reason]))
        setFiles((list) => list.map((f) => (f.problem === null && problems.has(f.file.name) ? { ...f, problem: problems.get(f.file.name)! } : f)))
        // Spec: with erroneous files the flow stays here with them marked; Continue then goes on with the others.
        if (!result.hasError) {
          setNames(result.names)
          setMe('')
          setStep('select-username')
        }
      } catch (e) {
        await showAlert(t('upload.errorTitle'), e instanceof ApiError ? e.message : String(e))
      } finally {
        setBusy(false)
      }
    })

  const uploadAndAnalyze = () =>
    once(async () => {
      try {
        await api(`/chatbots/characters/${characterId}/chat-history`, { form: form(me), silent: true })
        // Spec §9: a short pause lets the analysis start before the user moves on.
        await new Promise((r) => setTimeout(r, FAKE_WAIT_MS))
        sessionStorage.setItem('flashToast', t('upload.success'))
        location.assign('/app/select-character')
      } catch (e) {
        setBusy(false)
        await showAlert(t('upload.errorTitle'), e instanceof ApiError ? e.message : String(e))
      }
    })

  const problemText = (problem: Problem) =>
    problem === 'TooLarge' ? t('upload.tooLarge', { size: formatFileSize(maxBytes) }) : problem === 'NotText' ? t('upload.notText') : t('upload.wrongFormat')

  if (step === 'select-username') {
    return (
      <section className="upload-step" aria-labelledby="names-heading">
        <h1 id="names-heading">{t('upload.namesFound', { count: names.length })}</h1>
        <RadioGroup.Root className="names" value={me} onValueChange={setMe} aria-label={t('upload.whichIsYou')}>
          <p className="radio-legend">{t('upload.whichIsYou')}</p>
          {names.map((name, i) => (
            <label key={name} className="name-option" htmlFor={`name-${i}`}>
              <RadioGroup.Item id={`name-${i}`} value={name} className="radio"><RadioGroup.Indicator className="radio-dot" /></RadioGroup.Item>
              <span>{name}</span>
            </label>
          ))}
        </RadioGroup.Root>
        <div className="row-actions">
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => setStep('upload')}>{t('upload.back')}</button>
          <button type="button" className="btn" disabled={!me || usable.length === 0 || busy} onClick={uploadAndAnalyze}>
            {busy ? t('upload.uploading') : t('upload.uploadAndAnalyze')}
          </button>
        </div>
      </section>
    )
  }

  return (
    <section className="upload-step" aria-labelledby="upload-heading">
      <h1 id="upload-heading">{t('upload.heading')}</h1>
      <p className="muted">{t('upload.guidance')}</p>
      <button type="button" className="link-btn" onClick={() => setSheet(true)}>{t('upload.howTo')}</button>
      <div
        className={dragging ? 'dropzone dragging' : 'dropzone'}
        onDragOver={(e) => { e.preventDefault(); setDragging(true) }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => { e.preventDefault(); setDragging(false); add(e.dataTransfer.files) }}
      >
        <input ref={picker} type="file" accept=".txt,text/plain" multiple hidden onChange={(e) => add(e.target.files)} data-testid="chat-file-input" />
        <button type="button" className="btn btn-ghost" disabled={files.length >= MAX_CHAT_FILES} onClick={() => picker.current?.click()}>{t('upload.choose')}</button>
        <p className="muted small">{t('upload.dropHint')}</p>
      </div>
      {files.length > 0 && (
        <ul className="file-list" aria-label={t('upload.selected')}>
          {files.map((f) => (
            <li key={f.key} className={f.problem || !isTxt(f.file) ? 'file-tile bad' : 'file-tile'} data-testid="file-tile">
              <div>
                <strong>{f.file.name}</strong> <span className="muted">{formatFileSize(f.file.size)}</span>
                {!isTxt(f.file) && <p className="field-error">{t('upload.unsupported')}</p>}
                {f.problem && <p className="field-error">{problemText(f.problem)}</p>}
              </div>
              <button type="button" className="icon-btn" aria-label={t('upload.remove', { name: f.file.name })} onClick={() => setFiles((l) => l.filter((x) => x.key !== f.key))}>×</button>
            </li>
          ))}
        </ul>
      )}
      {usable.length > 0 && usable.length < files.length && <p className="muted small" role="status">{t('upload.leftOut')}</p>}
      <button type="button" className="btn btn-block" disabled={usable.length === 0 || busy || unsupported} onClick={analyzeNames}>
        {busy ? t('upload.analyzing') : t('upload.continue')}
      </button>
      <TutorialSheet open={sheet} onOpenChange={setSheet} onDone={() => picker.current?.click()} />
    </section>
  )
}

export default function ChatHistoryUpload(props: Props) {
  return (
    <ErrorBoundary>
      <Upload {...props} />
    </ErrorBoundary>
  )
}
