"""The states of a game's steps, as the tests dump them: several JSON documents
one after another in one file (`git show .../state.json` of each step)."""
import json


def read_states(path):
    """The "state" object of each document in the file at `path`, in order."""
    text, decoder, states, i = open(path).read(), json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return states
        value, i = decoder.raw_decode(text, i)
        states.append(value["state"])
