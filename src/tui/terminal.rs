//! Terminal setup and restoration. The terminal is restored on every way out: normal quit,
//! an error (the guard's Drop), a panic (the hook), and SIGTERM/SIGHUP (the runtime turns them
//! into a quit).

use std::io::{self, Stdout, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, BeginSynchronizedUpdate, EndSynchronizedUpdate,
    EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Put the terminal in TUI mode (raw, alternate screen, mouse, bracketed paste).
pub fn enter() -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste,
        cursor::Hide
    )
}

/// Give the terminal back as we found it. Safe to call more than once.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = io::stdout();
    let _ = execute!(
        out,
        // A panic in the middle of a frame must not leave the terminal holding it back.
        EndSynchronizedUpdate,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Draw one frame between the synchronized-update marks (DEC mode 2026): a terminal that
/// knows them shows the frame once it is whole, never the top of a new frame over the bottom
/// of the old one (stdout writes a frame in pieces of about 1 KB, and a busy machine can pause
/// between them); a terminal that does not know them ignores them.
pub fn draw_whole(term: &mut Term, render: impl FnOnce(&mut ratatui::Frame)) -> io::Result<()> {
    crossterm::queue!(term.backend_mut(), BeginSynchronizedUpdate)?;
    let drawn = term.draw(render).map(|_| ());
    // Ended even when the draw failed, so the terminal does not keep waiting for the end.
    execute!(term.backend_mut(), EndSynchronizedUpdate)?;
    drawn
}

/// Clear the screen and forget the frame ratatui believes is on it, so the next draw is whole:
/// after an external program (`$EDITOR`) had the terminal, the screen holds its output, not our
/// last frame. Unlike `Terminal::clear`, this does not first ask the terminal where its cursor
/// is: that query goes unanswered when the answer is late or read by someone else, `clear`
/// then fails before it forgets the frame, and the next draw only writes the cells that
/// changed, onto a blank screen.
pub fn invalidate(term: &mut Term) -> io::Result<()> {
    // Both buffers blank: the next frame is compared with nothing and written in full.
    term.current_buffer_mut().reset();
    term.swap_buffers();
    execute!(
        term.backend_mut(),
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All),
        cursor::MoveTo(0, 0)
    )
}

/// Restores the terminal when dropped (error paths).
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Restore the terminal before the default panic message is printed.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Enter TUI mode and build a ratatui terminal on stdout.
pub fn init() -> io::Result<(Term, Guard)> {
    install_panic_hook();
    enter()?;
    let guard = Guard;
    let term = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    Ok((term, guard))
}
