-- wrk's script for the GUI's move load (scripts/gui_load.sh): each wrk
-- thread has one connection and a game of its own (the ids in
-- LOAD_GAMES, one a thread), and plays a move there and takes it back, in
-- turn, so that every request is a legal one and no game ever ends.
local ids, next_id = {}, 1
for id in string.gmatch(os.getenv("LOAD_GAMES") or "", "%d+") do
  ids[#ids + 1] = id
end

function setup(thread)
  thread:set("game", ids[next_id])
  next_id = next_id + 1
end

-- What to send next follows the answers, not the calls of request(): wrk
-- calls it once more on the first thread to check it, and sends nothing.
local undo_next = false
local headers = { ["Content-Type"] = "application/json" }

function request()
  if undo_next then
    return wrk.format("POST", "/api/games/" .. game .. "/undo", headers, "{}")
  end
  return wrk.format("POST", "/api/games/" .. game .. "/move", headers, '{"move": "g4L"}')
end

function response(status)
  if status == 200 then
    undo_next = not undo_next
  end
end
